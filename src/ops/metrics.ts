// Prometheus metrics (prom-client), served on their own port (METRICS_PORT, bound to
// METRICS_HOST) and never on the public one: requests by route and status, latency, answer bytes,
// the process's event-loop lag and heap, hub subscriptions by state, verifications and deliveries
// by outcome, and the delivery queue's depth.
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { HubEvent } from '../hub/hub.ts';
import type { HubStats } from '../hub/store.ts';
import { PATHS } from '../core/site.ts';
import type { Logger } from './logger.ts';

export interface Metrics {
  readonly registry: Registry;
  observeRequest(route: string, status: number, seconds: number, bytes: number): void;
  observeHubEvent(event: HubEvent): void;
}

/** A fixed set of route labels, so a crawler of random URLs cannot grow the series. */
export function routeOf(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (path === PATHS.mcp) return 'mcp';
  if (path === PATHS.search) return 'search';
  if (path.startsWith(`${PATHS.since}/`)) return 'since';
  if (path === PATHS.hub) return 'hub';
  if (path === '/healthz') return 'healthz';
  if (path.startsWith('/api/')) return 'api_other';
  if (path.endsWith('.json') || path.endsWith('.xml') || path.endsWith('.txt')) return 'dataset';
  return 'site';
}

export function createMetrics(options: { hubStats?: () => Promise<HubStats> } = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route and status',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the last byte of the answer, by route',
    labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const bytes = new Counter({
    name: 'http_response_bytes_total',
    help: 'Bytes of answer bodies sent, by route',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const verifications = new Counter({
    name: 'websub_verifications_total',
    help: 'WebSub intent verifications, by mode and outcome',
    labelNames: ['mode', 'outcome'] as const,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'websub_deliveries_total',
    help: 'WebSub content delivery attempts, by outcome (delivered, failed, gone, skipped)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const removals = new Counter({
    name: 'websub_subscription_removals_total',
    help: 'Subscriptions removed: unsubscribed, gone (410) or too many failed deliveries',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  if (options.hubStats) {
    const hubStats = options.hubStats;
    // One store query per scrape feeds both gauges.
    let pending: Promise<HubStats | undefined> | undefined;
    const stats = () => {
      pending ??= hubStats()
        .catch(() => undefined)
        .finally(() => setTimeout(() => (pending = undefined), 0));
      return pending;
    };
    new Gauge({
      name: 'websub_subscriptions',
      help: 'WebSub subscriptions by state (active, expired and not yet purged)',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        const s = await stats();
        if (!s) return;
        this.set({ state: 'active' }, s.activeSubscriptions);
        this.set({ state: 'expired' }, s.expiredSubscriptions);
      },
    });
    new Gauge({
      name: 'websub_queue_depth',
      help: 'Hub work waiting: deliveries (retries included) and verifications',
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        const s = await stats();
        if (!s) return;
        this.set({ queue: 'deliveries' }, s.queuedDeliveries);
        this.set({ queue: 'verifications' }, s.pendingVerifications);
      },
    });
  }
  return {
    registry,
    observeRequest(route, status, seconds, size) {
      requests.inc({ route, status: String(status) });
      duration.observe({ route }, seconds);
      if (size > 0) bytes.inc({ route }, size);
    },
    observeHubEvent(event) {
      if (event.kind === 'verification')
        verifications.inc({ mode: event.mode, outcome: event.outcome });
      else if (event.kind === 'delivery') deliveries.inc({ outcome: event.outcome });
      else
        removals.inc({
          reason:
            event.reason === 'unsubscribed'
              ? 'unsubscribed'
              : event.reason.includes('410')
                ? 'gone'
                : 'failed_deliveries',
        });
    },
  };
}

/** GET /metrics on its own listener; anything else is 404. */
export function startMetricsServer(
  metrics: Metrics,
  host: string,
  port: number,
  logger: Logger,
): Server {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics collection failed');
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('error\n');
      },
    );
  });
  server.listen(port, host, () => {
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    logger.info(`metrics on http://${host}:${bound}/metrics`);
  });
  return server;
}
