// The Express adapter: composes CORS, the body limit, the read API, the static site, Astro's
// handler for anything not pre-rendered, and the JSON 404/405/413 answers. Called by src/server.ts
// and the integration tests; reads no environment.
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { ValidationError } from '../core/errors.ts';
import { PATHS } from '../core/site.ts';
import { createMcpHandler } from '../mcp/handler.ts';
import { mcpDepsFor, type PublishedSite } from './published-site.ts';
import { sendWebResponse, toWebRequest } from './web-adapter.ts';
import { sendError, sendMethodNotAllowed } from './respond.ts';
import {
  CORS_HEADERS,
  MAX_REQUEST_BODY_BYTES,
  HUB_PREFLIGHT_HEADERS,
  PREFLIGHT_HEADERS,
  READ_METHODS,
  declaresTooLarge,
  isReadMethod,
} from './rules.ts';
import { createHealthRoute } from './routes/health.ts';
import { createNotFoundRoute } from './routes/not-found.ts';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createFastPath } from './fast-path.ts';
import { LONG_REQUEST_LINE, URI_TOO_LONG } from './node-server.ts';
import type { PreparedRepresentation } from './respond.ts';
import { createReviewsApi, type ReviewsApi } from './routes/reviews-api.ts';
import { createStaticFiles, prepareInMemoryFiles } from './routes/static-files.ts';
import { createHubRoute } from './routes/hub.ts';
import { TRUST_NOTHING, clientAddress, type TrustProxy } from './client-address.ts';
import type { Logger, RequestLogger } from '../ops/logger.ts';
import { routeOf, type Metrics } from '../ops/metrics.ts';
import type { Hub } from '../hub/hub.ts';
import type { StoreHealth } from '../hub/store.ts';

export interface AppOptions {
  site: PublishedSite;
  siteUrl: string;
  /** Astro's middleware-mode handler (dist/server/entry.mjs), for routes that are not pre-rendered. */
  astroHandler?: RequestHandler | undefined;
  /** Key that signs Mcp-Session-Id; instances that share it accept each other's sessions. */
  mcpSessionSecret: string;
  /** Origins allowed to call /mcp from a browser, besides SITE_URL's own. */
  mcpAllowedOrigins?: readonly string[];
  /** The WebSub hub; without one, /api/websub/hub is an unknown path (404). */
  hub?: Hub | undefined;
  /** The hub store's health, reported by GET /healthz. */
  health?: (() => Promise<StoreHealth>) | undefined;
  /** Which proxies to believe about the client's address (TRUST_PROXY); default none. */
  trustProxy?: TrustProxy | undefined;
  /** JSON-RPC messages per client per minute on /mcp; unset = no limit. */
  mcpRateLimitPerMinute?: number | undefined;
  /** Where unexpected errors are logged (once each); default stderr. */
  logger?: Logger | undefined;
  /** One log line per request. */
  requestLogger?: RequestLogger | undefined;
  metrics?: Metrics | undefined;
}

// RFC 9110 §7.2 / RFC 3986 §3.2.2: a reg-name or IP literal, then an optional port.
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;

/** A Host header that no URL can be made of: refused before any route sees it. */
export function isMalformedHost(host: string | undefined): boolean {
  return host !== undefined && host !== '' && !HOST_HEADER.test(host);
}

/** More than one Host header (RFC 9112 §3.2: a 400); Node keeps only the first. */
function hasSeveralHosts(rawHeaders: readonly string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host' && ++hosts > 1)
      return true;
  return false;
}

/** An HTTP/1.1 request must name its host (RFC 9112 §3.2); HTTP/1.0 predates the header. */
function lacksHost(req: IncomingMessage): boolean {
  return req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1;
}

/** A JSON error answered before any route, with CORS headers; the connection then closes. */
function refuseEarly(
  res: ServerResponse,
  status: number,
  body: {
    error: string;
    message: string;
    issues: { path: string[]; code: string; message: string }[];
  },
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
    Connection: 'close',
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function refuseMalformedHost(res: ServerResponse, missing: boolean): void {
  refuseEarly(res, 400, {
    error: 'invalid_request',
    message: missing
      ? 'an HTTP/1.1 request needs a Host header'
      : 'the Host header is not one valid host[:port]',
    issues: [
      {
        path: ['host'],
        code: missing ? 'missing_host' : 'invalid_host',
        message: missing ? 'required in HTTP/1.1' : 'not one valid host[:port]',
      },
    ],
  });
}

/**
 * The methods a path answers. TRACE is refused here for every path: the Fetch standard forbids it,
 * so a Web Request (what /mcp and Astro's handler are given) cannot even be made of it.
 */
function allowedMethods(url: string): readonly string[] {
  const path = url.split('?')[0];
  return path === PATHS.mcp || path === PATHS.hub ? ['POST', 'OPTIONS'] : READ_METHODS;
}

function readOnly(handler: (req: Request, res: Response) => void): RequestHandler {
  return (req, res) => {
    if (!isReadMethod(req.method)) return sendMethodNotAllowed(res, READ_METHODS);
    handler(req, res);
  };
}

/** The parts the Express app shares with the fast path in front of it. */
interface SharedParts {
  inMemory: ReadonlyMap<string, PreparedRepresentation>;
  api: ReviewsApi;
}

/** The server's request handler: the fast path for ready answers, Express for everything else. */
export function createRequestListener(options: AppOptions): RequestListener {
  const parts = {
    inMemory: prepareInMemoryFiles(options.site, options.siteUrl),
    api: createReviewsApi(options.site),
  };
  const app = createApp(options, parts);
  const fast = createFastPath(parts.inMemory, parts.api);
  const { requestLogger, metrics } = options;
  return (req, res) => {
    requestLogger?.(req, res);
    if (metrics) {
      const started = performance.now();
      res.once('finish', () =>
        metrics.observeRequest(
          routeOf(req.url ?? '/'),
          res.statusCode,
          (performance.now() - started) / 1000,
          Number(res.getHeader('content-length') ?? 0),
        ),
      );
    }
    if (lacksHost(req)) return refuseMalformedHost(res, true);
    if (isMalformedHost(req.headers.host) || hasSeveralHosts(req.rawHeaders))
      return refuseMalformedHost(res, false);
    const url = req.url ?? '/';
    // Node's parser refuses only a head over 16 KiB; a URL over the documented limit is a 414 too.
    if (url.length > LONG_REQUEST_LINE) {
      const { status, error, message } = URI_TOO_LONG;
      return refuseEarly(res, status, { error, message, issues: [] });
    }
    if (req.method === 'TRACE') {
      const allow = allowedMethods(url);
      return refuseEarly(
        res,
        405,
        {
          error: 'method_not_allowed',
          message: `use ${allow.join(', ')} on this path`,
          issues: [],
        },
        { Allow: allow.join(', ') },
      );
    }
    if (!fast(req, res)) app(req, res);
  };
}

/**
 * Node's error for a request whose client closed the connection (or was timed out with a 408)
 * before sending all of its body: the client's doing, not a fault of the server.
 */
function isClientAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'ECONNRESET' &&
    error.message === 'aborted'
  );
}

/** The Express app behind the fast path, as a route table. */
function createApp(options: AppOptions, parts: SharedParts): express.Express {
  const { site, siteUrl, astroHandler } = options;
  const trust = options.trustProxy ?? TRUST_NOTHING;
  // A client that left is one line without a stack (its request's own line follows); anything
  // else unexpected is an error with its stack.
  const logError = (error: unknown) => {
    if (isClientAbort(error))
      options.logger?.info('the client closed the connection before its request was read');
    else if (options.logger) options.logger.error({ err: error }, 'unexpected error');
    else console.error(error);
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trust);
  // One URL per answer, as documented: /API/reviews/search or /api/reviews/search/ is a 404, not
  // a second address for the same search (a second cache entry, a second ETag to track).
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  // /mcp owns its CORS, limits and errors (handler.ts), so it also runs unchanged on serverless hosts.
  const mcp = createMcpHandler({
    deps: mcpDepsFor(site, siteUrl),
    sessionSecret: options.mcpSessionSecret,
    allowedOrigins: [new URL(siteUrl).origin, ...(options.mcpAllowedOrigins ?? [])],
    rateLimitPerMinute: options.mcpRateLimitPerMinute,
    onError: logError,
  });
  app.all(PATHS.mcp, async (req, res) =>
    sendWebResponse(
      res,
      await mcp(toWebRequest(req), { clientAddress: clientAddress(req, trust) }),
    ),
  );

  app.get(PATHS.health, createHealthRoute(site.index.count, options.health));

  // The hub reads its own bounded form and answers in plain text (docs/decisions.md#websub-hub).
  if (options.hub) {
    const hub = createHubRoute(options.hub, trust);
    app.all(PATHS.hub, (req, res, next) => {
      if (req.method === 'OPTIONS') return next();
      res.set(CORS_HEADERS);
      hub(req, res).catch(next);
    });
  }

  app.use((req, res, next) => {
    res.set(CORS_HEADERS);
    if (req.method === 'OPTIONS') {
      res.set(req.path === PATHS.hub ? HUB_PREFLIGHT_HEADERS : PREFLIGHT_HEADERS);
      res.status(204).end();
      return;
    }
    if (declaresTooLarge(req.get('content-length'), MAX_REQUEST_BODY_BYTES)) {
      res.set('Connection', 'close');
      return sendError(
        res,
        413,
        'payload_too_large',
        `request bodies are limited to ${MAX_REQUEST_BODY_BYTES} bytes`,
      );
    }
    next();
  });

  const { api } = parts;
  app.all(PATHS.search, readOnly(api.search));
  app.all(`${PATHS.since}/:date`, readOnly(api.since));
  app.use(createStaticFiles(site, siteUrl, parts.inMemory));
  app.all('/api/{*rest}', (_req, res) =>
    sendError(res, 404, 'not_found', 'no such API endpoint; see /openapi.json'),
  );
  // The site has no server islands; Astro's island endpoint would read request bodies of its own.
  app.all('/_server-islands/{*rest}', (_req, res) =>
    sendError(res, 404, 'not_found', 'no such page or file; see /openapi.json for the endpoints'),
  );
  if (astroHandler) app.use(astroHandler);

  app.use(createNotFoundRoute(site));

  // One catch-all: core's ValidationError is a 400; a client error from a parser keeps its status;
  // anything else is logged and answered without detail.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof ValidationError) {
      return sendError(res, 400, 'invalid_request', error.message, error.issues);
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const message = 'the request could not be read (e.g. invalid percent-encoding in the URL)';
      return sendError(res, status, 'invalid_request', message, [
        { path: [], code: 'invalid_request', message },
      ]);
    }
    logError(error);
    if (isClientAbort(error)) return;
    sendError(res, 500, 'internal_error', 'the server could not answer this request');
  });
  return app;
}
