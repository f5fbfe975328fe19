/// <reference types="astro/client" />

interface ImportMetaEnv {
  /** Absolute CONTENT_DIR, defined by astro.config.mjs. */
  readonly REVIEWS_CONTENT_DIR: string;
}
