// Which address a request comes from, under the TRUST_PROXY setting: Express's `trust proxy`
// semantics (proxy-addr), shared by the Express app (req.ip), the fast path, the MCP handler, the
// rate limits and the request log. Trusting nothing (the default) means the socket's peer address;
// X-Forwarded-For from an untrusted peer is ignored.
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

export type TrustProxy = (address: string, hop: number) => boolean;

/** Never trust a proxy: the client is the socket's peer. */
export const TRUST_NOTHING: TrustProxy = () => false;

/**
 * Compiles a TRUST_PROXY value: `true`/`false`, a hop count (trust that many proxies in front of
 * the server), or comma-separated addresses, CIDR ranges and the names `loopback`, `linklocal`,
 * `uniquelocal`. Throws on anything else, with the offending entry in the message.
 */
export function compileTrustProxy(value: string | undefined): TrustProxy {
  const setting = (value ?? '').trim();
  if (setting === '' || setting === 'false') return TRUST_NOTHING;
  if (setting === 'true') return () => true;
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    return (_address, hop) => hop < hops;
  }
  const entries = setting
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    return proxyaddr.compile(entries);
  } catch (error) {
    throw new Error((error as Error).message, { cause: error });
  }
}

/**
 * The client's address as the trust setting derives it ('unknown' once the socket is closed or
 * gone: Node takes it from a request whose answer has been sent).
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  const address = (req.socket as IncomingMessage['socket'] | null)?.remoteAddress;
  if (address === undefined) return 'unknown';
  return trust === TRUST_NOTHING ? address : proxyaddr(req, trust);
}
