// The Node HTTP server around the request listener, with the limits that keep slow or idle
// clients from holding it: a deadline for the headers and for the whole request, a short
// keep-alive, a cap on open connections, and a smaller cap per peer address so one client (a
// slowloris) gets a share of the connections, never all of them.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { CORS_HEADERS } from './rules.ts';

/** A request line longer than this, when the head is too large, is a URL too long (414). */
export const LONG_REQUEST_LINE = 8 * 1024;

/** The answer to a URL over the limit, whether Node's parser or the app finds it too long. */
export const URI_TOO_LONG = {
  status: 414,
  statusText: 'URI Too Long',
  error: 'uri_too_long',
  message: `the URL is too long (the request line may be at most about ${LONG_REQUEST_LINE} bytes)`,
};

/**
 * The answer to a request Node's parser could not read, as the service answers other bad requests
 * (a JSON body and CORS headers, so that a browser client can read why): Node's own is an empty
 * 400 or 431.
 */
export function clientErrorAnswer(
  code: string | undefined,
  rawPacket: Buffer | undefined,
): { status: number; statusText: string; error: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW': {
      // The packet Node was reading: the request line is the URL's when the packet starts with it.
      const startsRequest = /^[A-Z-]+ \S/.test(rawPacket?.subarray(0, 24).toString('latin1') ?? '');
      const lineEnd = rawPacket?.indexOf('\r\n') ?? -1;
      return startsRequest && (lineEnd === -1 || lineEnd > LONG_REQUEST_LINE)
        ? URI_TOO_LONG
        : {
            status: 431,
            statusText: 'Request Header Fields Too Large',
            error: 'headers_too_large',
            message: 'the request headers are too large (16 KiB in all at most)',
          };
    }
    case 'HPE_INVALID_METHOD':
      return {
        status: 501,
        statusText: 'Not Implemented',
        error: 'unknown_method',
        message: 'the request method is not one this server knows (GET, HEAD, POST, OPTIONS)',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        statusText: 'Request Timeout',
        error: 'request_timeout',
        message: 'the request did not arrive in time',
      };
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
      return {
        status: 400,
        statusText: 'Bad Request',
        error: 'invalid_request',
        message:
          'the request line could not be read: write a URL in ASCII, with other characters percent-encoded',
      };
    default:
      return {
        status: 400,
        statusText: 'Bad Request',
        error: 'invalid_request',
        message: `the request could not be read as HTTP/1.1 (${code ?? 'malformed'})`,
      };
  }
}

/** A whole JSON answer, written to the socket as it is (no response object exists for it). */
function rawJsonAnswer(
  { status, statusText, error, message }: ReturnType<typeof clientErrorAnswer>,
  headers: readonly string[] = [],
): string {
  const body = `${JSON.stringify({ error, message, issues: [] })}\n`;
  return [
    `HTTP/1.1 ${status} ${statusText}`,
    ...Object.entries(CORS_HEADERS).map(([name, value]) => `${name}: ${value}`),
    ...headers,
    'Content-Type: application/json; charset=utf-8',
    'Cache-Control: no-store',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

const CONNECT_REFUSAL = rawJsonAnswer(
  {
    status: 405,
    statusText: 'Method Not Allowed',
    error: 'method_not_allowed',
    message: 'CONNECT is not supported: this server is not a proxy',
  },
  ['Allow: GET, HEAD, POST, OPTIONS'],
);

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
      // An HTTP/1.1 request without Host is refused by the app, with a JSON answer: Node's own is
      // an empty 400.
      requireHostHeader: false,
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
  // As Node's own answer: written unless a response to this connection has begun, then the
  // connection closed (the client may still be sending what could not be read).
  server.on(
    'clientError',
    (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
      const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })
        ._httpMessage;
      if (socket.writable && error.code !== 'ECONNRESET' && !inFlight?.headersSent)
        socket.write(rawJsonAnswer(clientErrorAnswer(error.code, error.rawPacket)));
      socket.destroy();
    },
  );
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
