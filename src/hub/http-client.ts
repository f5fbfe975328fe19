// Outbound HTTPS for verification and delivery: every request has a deadline, reads at most a few
// bytes of the answer, never follows redirects, and connects to the very address that was checked
// against the address policy (a custom DNS lookup), so a DNS answer cannot change after the check.
// TLS is verified as usual; NODE_EXTRA_CA_CERTS adds trusted roots.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHostname, isForbiddenAddress } from './address-policy.ts';
import { CallbackLookupUnavailable } from './context.ts';

export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
  /** Answers are read up to this many bytes; the rest is discarded. */
  maxBodyBytes: number;
}

export interface OutboundResponse {
  status: number;
  body: Buffer;
}

export type Fetcher = (request: OutboundRequest) => Promise<OutboundResponse>;

export interface FetcherOptions {
  allowPrivate: boolean;
  userAgent: string;
}

/** Lookup failures that say nothing of the name, only of the resolver at this moment. */
const TEMPORARY_LOOKUP_ERRORS = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ESERVFAIL', 'ECONNREFUSED']);

type Lookup = (
  host: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * Resolves a callback's host and refuses it when any address is forbidden or there is none. A
 * resolver that fails for now (a timeout, a server failure) throws `CallbackLookupUnavailable`.
 */
export async function checkCallbackHost(
  url: URL,
  allowPrivate: boolean,
  lookup: Lookup = dnsLookup,
): Promise<string | undefined> {
  const host = bareHostname(url.hostname);
  if (allowPrivate) return undefined;
  if (isIP(host))
    return isForbiddenAddress(host) ? `the callback address ${host} is not public` : undefined;
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => {
    lookup(host, { all: true }, (error, found) => {
      if (!error) resolve(found);
      else if (TEMPORARY_LOOKUP_ERRORS.has(error.code ?? ''))
        reject(new CallbackLookupUnavailable(host, error.code));
      else resolve([]);
    });
  });
  if (addresses.length === 0) return `the callback host ${host} does not resolve`;
  const bad = addresses.find((entry) => isForbiddenAddress(entry.address));
  return bad
    ? `the callback host ${host} resolves to ${bad.address}, which is not public`
    : undefined;
}

function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate
        ? addresses
        : addresses.filter((entry) => !isForbiddenAddress(entry.address));
      if (usable.length === 0 || usable.length !== addresses.length) {
        const refused = Object.assign(
          new Error(`refusing to connect: ${hostname} resolves to a non-public address`),
          {
            code: 'EFORBIDDENADDRESS',
          },
        );
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

export function createFetcher({ allowPrivate, userAgent }: FetcherOptions): Fetcher {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, lookup: checkedLookup(allowPrivate) });
  return (req) =>
    new Promise<OutboundResponse>((resolve, reject) => {
      if (req.url.protocol !== 'https:')
        return reject(new OutboundError('only https callbacks are contacted'));
      const host = bareHostname(req.url.hostname);
      if (!allowPrivate && isIP(host) && isForbiddenAddress(host)) {
        return reject(new OutboundError(`refusing to connect to ${host}`));
      }
      const headers: Record<string, string> = { 'User-Agent': userAgent, ...req.headers };
      if (req.body) headers['Content-Length'] = String(req.body.length);
      let settled = false;
      const finish = (error: Error | undefined, response?: OutboundResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        if (error)
          reject(error instanceof OutboundError ? error : new OutboundError(error.message));
        else resolve(response!);
      };
      const outgoing = request(
        req.url,
        { method: req.method, headers, agent, ...(isIP(host) ? {} : { servername: host }) },
        (incoming) => {
          const chunks: Buffer[] = [];
          let size = 0;
          incoming.on('data', (chunk: Buffer) => {
            if (size >= req.maxBodyBytes) return;
            chunks.push(chunk.subarray(0, req.maxBodyBytes - size));
            size += chunk.length;
            if (size >= req.maxBodyBytes) {
              // Enough read: stop the transfer rather than wait for a large or endless body.
              finish(undefined, { status: incoming.statusCode ?? 0, body: Buffer.concat(chunks) });
              incoming.destroy();
            }
          });
          incoming.on('end', () =>
            finish(undefined, { status: incoming.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          incoming.on('error', (error) => finish(error));
          incoming.on('aborted', () => finish(new OutboundError('the answer was cut off')));
        },
      );
      const deadline = setTimeout(() => {
        finish(new OutboundError(`no complete answer within ${req.timeoutMs} ms`));
        outgoing.destroy();
      }, req.timeoutMs);
      outgoing.on('error', (error) => finish(error));
      outgoing.end(req.body);
    });
}
