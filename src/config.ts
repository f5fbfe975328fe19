// Environment configuration (the README's table lists every variable), parsed once with zod at each entry point (the server,
// the build, the scripts). A bad value stops start-up with a message naming the variable.
import { z } from 'zod';
import { compileTrustProxy } from './http/client-address.ts';

const flag = z
  .enum(['', '0', '1', 'false', 'true', 'off', 'on', 'no', 'yes'], {
    message: 'expected one of 1/0, true/false, on/off, yes/no',
  })
  .transform((value) => ['1', 'true', 'on', 'yes'].includes(value));

const positiveInt = z
  .string()
  .regex(/^\d+$/, { message: 'expected a whole number' })
  .transform(Number)
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

// zod runs this refinement even when the URL check before it failed, so it must not throw.
function isBaseUrl(value: string): boolean {
  const url = URL.parse(value);
  return url === null || (!/[?#]/.test(value) && url.username === '' && url.password === '');
}

// As isBaseUrl, must not throw.
function isOrigin(value: string): boolean {
  const url = URL.parse(value);
  return url === null || /^\/*$/.test(url.pathname);
}

const ConfigSchema = z.object({
  SITE_URL: z
    .url({
      protocol: /^https?$/,
      message: 'expected an absolute http(s) URL such as https://reviews.example.com',
    })
    // It is `{base_url}`: every published URL is `${SITE_URL}/path`, so a query, fragment or
    // credentials would end up inside (or in front of) every path.
    .refine(isBaseUrl, { message: 'expected a base URL without credentials, ?query or #fragment' })
    // The pages, their styles and the server's routes all sit at the root of the host: under a
    // path, every link on a page would miss.
    .refine(isOrigin, {
      message:
        'expected no path: the site is served at the root of its host (https://reviews.example.com, not https://example.com/reviews)',
    })
    .default('http://localhost:4321')
    .transform((url) => url.replace(/\/+$/, '')),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z
    .string()
    .regex(/^\d+$/, { message: 'expected a port number' })
    .transform(Number)
    .pipe(z.number().int().min(0).max(65535))
    .default(4321),
  CONTENT_DIR: z.string().min(1).default('content'),
  DATA_DIR: z.string().min(1).default('.data'),
  DIST_DIR: z.string().min(1).default('dist'),
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: flag.default(false),
  WEBSUB_LEASE_SECONDS: positiveInt.default(864000),
  WEBSUB_LEASE_MIN_SECONDS: positiveInt.default(3600),
  WEBSUB_LEASE_MAX_SECONDS: positiveInt.default(864000),
  WEBSUB_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, {
      message: 'expected comma-separated milliseconds such as 60000,600000',
    })
    .transform((value) => value.split(',').map(Number))
    .refine((delays) => delays.every(Number.isSafeInteger), {
      message: `each delay must be at most ${Number.MAX_SAFE_INTEGER} ms`,
    })
    .default([60000, 600000]),
  WEBSUB_RATE_LIMIT_PER_MINUTE: positiveInt.default(60),
  WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: positiveInt.default(100),
  WEBSUB_TIMEOUT_MS: positiveInt.default(10000),
  WEBSUB_CLAIM_SECONDS: positiveInt.default(30),
  DATABASE_URL: z.string().min(1).optional(),
  MCP_SESSION_SECRET: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  MCP_RATE_LIMIT_PER_MINUTE: positiveInt.default(300),
  TRUST_PROXY: z
    .string()
    .superRefine((value, ctx) => {
      try {
        compileTrustProxy(value);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `expected true, false, a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal (${(error as Error).message})`,
        });
      }
    })
    .default(''),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'expected one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  METRICS_PORT: z
    .string()
    .regex(/^\d+$/, { message: 'expected a port number' })
    .transform(Number)
    .pipe(z.number().int().min(0).max(65535))
    .optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .default([]),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; empty strings count as unset so `PORT= npm start` uses the default. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const defined = Object.fromEntries(
    Object.keys(ConfigSchema.shape)
      .map((key) => [key, env[key]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = ConfigSchema.safeParse(defined);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (result.data.WEBSUB_CLAIM_SECONDS * 1000 <= result.data.WEBSUB_TIMEOUT_MS) {
    throw new ConfigError(
      'Invalid configuration:\n  WEBSUB_CLAIM_SECONDS: must be longer than WEBSUB_TIMEOUT_MS, or a slow request could be sent twice',
    );
  }
  if (result.data.WEBSUB_LEASE_MIN_SECONDS > result.data.WEBSUB_LEASE_MAX_SECONDS) {
    throw new ConfigError(
      'Invalid configuration:\n  WEBSUB_LEASE_MIN_SECONDS: must not exceed WEBSUB_LEASE_MAX_SECONDS',
    );
  }
  return result.data;
}
