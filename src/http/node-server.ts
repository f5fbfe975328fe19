// The Node HTTP server around the request listener, with the limits that keep slow or idle
// clients from holding it: a deadline for the headers and for the whole request, a short
// keep-alive, a cap on open connections, and a smaller cap per peer address so one client (a
// slowloris) gets a share of the connections, never all of them.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

const CONNECT_REFUSAL_BODY = 'CONNECT is not supported: this server is not a proxy\n';
const CONNECT_REFUSAL = [
  'HTTP/1.1 405 Method Not Allowed',
  'Allow: GET, HEAD, POST, OPTIONS',
  'Content-Type: text/plain; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(CONNECT_REFUSAL_BODY)}`,
  'Connection: close',
  '',
  CONNECT_REFUSAL_BODY,
].join('\r\n');

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerPeer: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 4096,
  maxConnectionsPerPeer: 256,
};

export function createNodeServer(
  listener: RequestListener,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval; keep it well under them.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs / 4),
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  // CONNECT asks for a tunnel, which this server never opens: without this, Node drops the
  // connection with no answer at all.
  server.on('connect', (_req, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(CONNECT_REFUSAL);
  });
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const peer = socket.remoteAddress ?? 'unknown';
    const count = (open.get(peer) ?? 0) + 1;
    if (count > limits.maxConnectionsPerPeer) {
      socket.destroy();
      return;
    }
    open.set(peer, count);
    socket.once('close', () => {
      const left = (open.get(peer) ?? 1) - 1;
      if (left === 0) open.delete(peer);
      else open.set(peer, left);
    });
  });
  return server;
}
