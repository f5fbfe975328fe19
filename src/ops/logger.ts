// JSON logs on stdout with pino: one line per request (pino-http's field names: req.method,
// req.url, res.statusCode, responseTime) and one per hub verification, delivery and removal.
// LOG_LEVEL picks the level; `silent` turns logging off.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { HubEvent } from '../hub/hub.ts';
import { clientAddress, type TrustProxy } from '../http/client-address.ts';

export type { Logger } from 'pino';

/** Request URLs longer than this are cut in the log (a URL can be 16 KB of junk). */
const LOGGED_URL_MAX = 2048;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

export type RequestLogger = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * One line per request when the answer is sent: info for 1xx-3xx, warn for 4xx, error for 5xx.
 * `client` is the address under TRUST_PROXY, as the rate limits see it.
 */
export function createRequestLogger(logger: Logger, trust: TrustProxy): RequestLogger {
  let sequence = 0;
  // Read when the request arrives: by the time the answer is logged its socket may be gone.
  const clients = new WeakMap<IncomingMessage, string>();
  const log = pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: () => (sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER),
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customProps: (req) => ({ client: clients.get(req) ?? clientAddress(req, trust) }),
    serializers: {
      req: (req: { id: number; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url.length > LOGGED_URL_MAX ? `${req.url.slice(0, LOGGED_URL_MAX)}…` : req.url,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return (req, res) => {
    clients.set(req, clientAddress(req, trust));
    log(req, res);
  };
}

/** A hub event as one log line: removals and failures are warnings an operator looks for. */
export function logHubEvent(logger: Logger, event: HubEvent): void {
  switch (event.kind) {
    case 'verification':
      logger.info({ hub: event }, `hub ${event.mode} verification ${event.outcome}`);
      return;
    case 'delivery':
      if (event.outcome === 'delivered' || event.outcome === 'skipped')
        logger.info({ hub: event }, `hub delivery ${event.outcome}`);
      else logger.warn({ hub: event }, `hub delivery ${event.outcome}`);
      return;
    case 'removal':
      logger.warn({ hub: event }, `hub removed a subscription: ${event.reason}`);
      return;
  }
}
