// The Node origin: reads the configuration, loads the built site from DIST_DIR, listens, and shuts
// down cleanly on SIGINT/SIGTERM. The only file that reads the environment and listens.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'express';
import { ConfigError, parseConfig } from './config.ts';
import { createRequestListener } from './http/app.ts';
import { loadPublishedSite } from './http/published-site.ts';
import { checkCallbackHost, createFetcher } from './hub/http-client.ts';
import { createHub } from './hub/hub.ts';
import { PgHubStore, StoreUnavailableError } from './hub/pg-store.ts';
import { SqliteHubStore } from './hub/sqlite-store.ts';
import type { HubStore } from './hub/store.ts';
import { compileTrustProxy } from './http/client-address.ts';
import { createNodeServer } from './http/node-server.ts';
import { createLogger, createRequestLogger, logHubEvent } from './ops/logger.ts';
import { createMetrics, startMetricsServer } from './ops/metrics.ts';

async function loadAstroHandler(distDir: string): Promise<RequestHandler | undefined> {
  const entry = path.join(distDir, 'server', 'entry.mjs');
  if (!existsSync(entry)) return undefined;
  const module = (await import(pathToFileURL(entry).href)) as { handler?: RequestHandler };
  return module.handler;
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = parseConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const trustProxy = compileTrustProxy(config.TRUST_PROXY);
  const distDir = path.resolve(config.DIST_DIR);
  const site = await loadPublishedSite(distDir);
  // DATABASE_URL: PostgreSQL shared by every instance; otherwise node:sqlite under DATA_DIR.
  const store: HubStore = config.DATABASE_URL
    ? await PgHubStore.open({ connectionString: config.DATABASE_URL })
    : SqliteHubStore.open(path.resolve(config.DATA_DIR));
  const metrics = createMetrics({ hubStats: () => store.stats(Date.now()) });
  const hub = createHub({
    store,
    fetcher: createFetcher({
      allowPrivate: config.WEBSUB_ALLOW_PRIVATE_CALLBACKS,
      userAgent: `roofing-reviews-hub/1.0 (WebSub hub of ${config.SITE_URL})`,
    }),
    resolveCallback: checkCallbackHost,
    siteUrl: config.SITE_URL,
    topicContent: (topicPath) => {
      const file = site.files.get(topicPath)!;
      return { body: file.bytes!, contentType: file.type };
    },
    lease: {
      defaultSeconds: config.WEBSUB_LEASE_SECONDS,
      minSeconds: config.WEBSUB_LEASE_MIN_SECONDS,
      maxSeconds: config.WEBSUB_LEASE_MAX_SECONDS,
    },
    retryDelaysMs: config.WEBSUB_RETRY_DELAYS_MS,
    maxSubscriptionsPerHost: config.WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST,
    rateLimitPerMinute: config.WEBSUB_RATE_LIMIT_PER_MINUTE,
    allowPrivateCallbacks: config.WEBSUB_ALLOW_PRIVATE_CALLBACKS,
    claimSeconds: config.WEBSUB_CLAIM_SECONDS,
    timeoutMs: config.WEBSUB_TIMEOUT_MS,
    log: (message) => logger.warn(message),
    onEvent: (event) => {
      logHubEvent(logger, event);
      metrics.observeHubEvent(event);
    },
  });
  hub.start();
  const listener = createRequestListener({
    hub,
    health: () => store.health(),
    site,
    siteUrl: config.SITE_URL,
    astroHandler: await loadAstroHandler(distDir),
    // Without a configured secret, sessions are valid on this process only.
    mcpSessionSecret: config.MCP_SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    mcpAllowedOrigins: config.MCP_ALLOWED_ORIGINS,
    mcpRateLimitPerMinute: config.MCP_RATE_LIMIT_PER_MINUTE,
    trustProxy,
    logger,
    requestLogger:
      config.LOG_LEVEL === 'silent' ? undefined : createRequestLogger(logger, trustProxy),
    metrics,
  });
  const server = createNodeServer(listener);
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : startMetricsServer(metrics, config.METRICS_HOST, config.METRICS_PORT, logger);
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const ms = Math.round(performance.now() - started);
    logger.info(
      `reviews service: ${site.index.count} reviews on http://${config.HOST}:${port} (${config.SITE_URL}) in ${ms} ms`,
    );
  });
  server.on('error', (error) => {
    console.error(`cannot listen on ${config.HOST}:${config.PORT}: ${error.message}`);
    process.exit(1);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    metricsServer?.close();
    void hub
      .stop()
      .then(() => store.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof StoreUnavailableError
      ? error.message
      : error instanceof Error
        ? error.message
        : error,
  );
  process.exit(1);
});
