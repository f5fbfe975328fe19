// What every Astro page calls: the build's site, configured from astro.config.mjs (site, content dir).
import { getBuildSite, type BuildSite } from './site.ts';

export function site(): Promise<BuildSite> {
  return getBuildSite({
    siteUrl: import.meta.env.SITE.replace(/\/+$/, ''),
    contentDir: import.meta.env.REVIEWS_CONTENT_DIR,
  });
}

export function textFile(body: string): Response {
  return new Response(body);
}
