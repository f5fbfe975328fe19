// POST /mcp as one web-standard handler, `(Request) => Promise<Response>`: mounted in Express by
// src/http/app.ts and usable as-is by a serverless function. Each request gets a fresh stateless
// server and transport with JSON responses; the session is a signed token (session.ts).
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpDeps } from './deps.ts';
import { isId, problemOf, type JsonRpcId } from './messages.ts';
import { clientKey, RateLimiter } from '../hub/rate-limit.ts';
import { readBounded, webChunks } from '../http/bounded-body.ts';
import {
  CORS_HEADERS,
  MAX_REQUEST_BODY_BYTES,
  MCP_PREFLIGHT_HEADERS,
  ENCODED_BODY_MESSAGE,
  declaresTooLarge,
  declaresUtf8,
  isEncodedBody,
  acceptsMediaType,
  mediaTypeOf,
} from '../http/rules.ts';
import { createMcpServer } from './server.ts';
import { createSessionToken, verifySessionToken } from './session.ts';

/** Request bodies are JSON-RPC messages; the shared limit is far above any legitimate call. */
export const MCP_MAX_BODY_BYTES = MAX_REQUEST_BODY_BYTES;
/** Largest JSON-RPC batch accepted from clients of protocol versions that still have batches. */
export const MCP_MAX_BATCH = 10;
/** Batches were removed from MCP in this version; its clients (and later ones) may not send them. */
const NO_BATCHES_SINCE = '2025-06-18';
/** A client that states no version is taken to speak this one (MCP transports §protocol version). */
const DEFAULT_PROTOCOL_VERSION = '2025-03-26';

/** What the host knows about the request beyond the web Request itself. */
export interface McpRequestContext {
  /** The client's address (under the host's proxy trust), the key of the rate limit. */
  clientAddress?: string | undefined;
}

export interface McpHandlerOptions {
  deps: McpDeps;
  sessionSecret: string;
  /** Origins allowed besides requests without an Origin header (the site's own origin first). */
  allowedOrigins: readonly string[];
  /** JSON-RPC messages per client per minute (a batch counts each message); unset = no limit. */
  rateLimitPerMinute?: number | undefined;
  /** Told once about each unexpected error (the client gets a bare -32603). */
  onError?: (error: unknown) => void;
  now?: () => number;
}

const CORS = CORS_HEADERS;

const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: JsonRpcId = null,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'Content-Type': 'application/json', ...CORS, ...headers },
  });
}

/**
 * The SDK's answer as the client should get it: an error's message without the SDK's own
 * "MCP error -32602: " in front (clients add the code themselves), and the answer to a batch an
 * array even when it holds one answer. The pattern can only match the JSON's own structure: a
 * quote inside a string value is escaped.
 */
function answerAsSent(payload: string, batch: boolean): string {
  const text = payload.replace(/"message":"MCP error -?\d+: /g, '"message":"');
  return batch && text.startsWith('{') ? `[${text}]` : text;
}

/** Reads at most `limit` bytes; undefined when the body is larger. */
async function readBody(request: Request, limit: number): Promise<Buffer | undefined> {
  if (declaresTooLarge(request.headers.get('content-length'), limit)) return undefined;
  if (!request.body) return Buffer.alloc(0);
  return readBounded(webChunks(request.body), limit);
}

/** Strict UTF-8: a byte that is none would otherwise be read as U+FFFD and searched for. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function isJsonContentType(value: string | null): boolean {
  return mediaTypeOf(value) === 'application/json' && declaresUtf8(value);
}

function acceptsBoth(value: string | null): boolean {
  return (
    acceptsMediaType(value, 'application/json') && acceptsMediaType(value, 'text/event-stream')
  );
}

interface RpcMessage {
  id?: JsonRpcId;
  method?: unknown;
  params?: { name?: unknown };
}

export type McpHandler = (request: Request, context?: McpRequestContext) => Promise<Response>;

/** The protocol version a request speaks: its header, or the version an initialize asks for. */
function protocolVersionOf(request: Request, messages: readonly RpcMessage[]): string {
  const header = request.headers.get('mcp-protocol-version');
  if (header) return header;
  const initialize = messages.find((message) => isInitializeRequest(message));
  const asked = (initialize?.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof asked === 'string' ? asked : DEFAULT_PROTOCOL_VERSION;
}

export function createMcpHandler(options: McpHandlerOptions): McpHandler {
  const now = options.now ?? Date.now;
  const limiter =
    options.rateLimitPerMinute === undefined
      ? undefined
      : new RateLimiter(options.rateLimitPerMinute);
  const allowed = new Set(options.allowedOrigins);
  const trustedHosts = new Set([
    ...LOOPBACK_HOSTNAMES,
    ...options.allowedOrigins.map((origin) => new URL(origin).hostname),
  ]);

  /**
   * The configured origins, or a same-origin page (Origin's host equals Host) when that host is
   * loopback or an allowed site: a rebound name (Host: evil.example) is neither, so it stays out.
   */
  function isAllowedOrigin(origin: string, host: string | null): boolean {
    if (allowed.has(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return host !== null && url.host === host && trustedHosts.has(url.hostname);
  }

  const handle = async (request: Request, context: McpRequestContext): Promise<Response> => {
    if (request.method === 'OPTIONS')
      return new Response(null, { status: 204, headers: MCP_PREFLIGHT_HEADERS });
    const origin = request.headers.get('origin');
    // Streamable HTTP §security: validate Origin against DNS rebinding; no Origin (non-browser) is fine.
    if (origin !== null && !isAllowedOrigin(origin, request.headers.get('host'))) {
      return jsonRpcError(403, -32000, `Forbidden: origin ${origin} is not allowed`);
    }
    if (request.method !== 'POST') {
      return jsonRpcError(
        405,
        -32000,
        'Method not allowed: this server answers POST only (no SSE stream, no session deletion)',
        null,
        {
          Allow: 'POST, OPTIONS',
        },
      );
    }
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return jsonRpcError(
        415,
        -32000,
        'Unsupported Media Type: Content-Type must be application/json (in UTF-8, the only charset read)',
      );
    }
    if (isEncodedBody(request.headers.get('content-encoding')))
      return jsonRpcError(415, -32000, `Unsupported Media Type: ${ENCODED_BODY_MESSAGE}`, null, {
        'Accept-Encoding': 'identity',
      });
    if (!acceptsBoth(request.headers.get('accept'))) {
      return jsonRpcError(
        406,
        -32000,
        'Not Acceptable: Accept must list application/json and text/event-stream',
      );
    }
    const bytes = await readBody(request, MCP_MAX_BODY_BYTES);
    if (bytes === undefined)
      return jsonRpcError(413, -32000, `Payload Too Large: at most ${MCP_MAX_BODY_BYTES} bytes`);
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the body is not valid UTF-8');
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the body is not valid JSON');
    }

    const messages = (Array.isArray(body) ? body : [body]) as RpcMessage[];
    const protocolVersion = protocolVersionOf(request, messages);
    if (Array.isArray(body)) {
      if (body.length === 0) return jsonRpcError(400, -32600, 'Invalid Request: an empty batch');
      if (protocolVersion >= NO_BATCHES_SINCE)
        return jsonRpcError(
          400,
          -32600,
          `Invalid Request: JSON-RPC batches are not part of MCP ${protocolVersion}; send one message per request`,
        );
      if (body.length > MCP_MAX_BATCH)
        return jsonRpcError(
          400,
          -32600,
          `Invalid Request: a batch may hold at most ${MCP_MAX_BATCH} messages`,
        );
    }
    if (limiter) {
      const key = clientKey(context.clientAddress ?? 'unknown');
      const decision = limiter.take(key, now(), Math.min(messages.length, MCP_MAX_BATCH));
      if (!decision.allowed) {
        // A single request's refusal carries its id, so a client can tell which call was refused.
        const refusedId: unknown = Array.isArray(body) ? null : messages[0]?.id;
        return jsonRpcError(
          429,
          -32000,
          `Too Many Requests: at most ${options.rateLimitPerMinute} messages a minute per client; retry in ${decision.retryAfterSeconds} s`,
          isId(refusedId) ? refusedId : null,
          { 'Retry-After': String(decision.retryAfterSeconds) },
        );
      }
    }
    const problem = problemOf(messages, Array.isArray(body));
    if (problem)
      // A request's bad params get its JSON-RPC error as any answer does (200); a body that is not
      // JSON-RPC at all is refused as the transport refuses it (400).
      return jsonRpcError(
        problem.code === -32602 && !Array.isArray(body) ? 200 : 400,
        problem.code,
        problem.message,
        problem.id,
      );

    const initializing = messages.some((message) => isInitializeRequest(message));
    let sessionId: string | undefined;
    if (initializing) {
      sessionId = createSessionToken(options.sessionSecret, now());
    } else {
      const given = request.headers.get('mcp-session-id');
      if (!given)
        return jsonRpcError(
          400,
          -32000,
          'Bad Request: Mcp-Session-Id header is required; send initialize first',
        );
      if (!verifySessionToken(options.sessionSecret, given, now())) {
        return jsonRpcError(404, -32001, 'Session not found: initialize a new session');
      }
    }

    const server = createMcpServer(options.deps, { protocolVersion });
    const transport = new WebStandardStreamableHTTPServerTransport(
      initializing
        ? { sessionIdGenerator: () => sessionId!, enableJsonResponse: true }
        : { enableJsonResponse: true },
    );
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(request, { parsedBody: body });
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(CORS)) headers.set(name, value);
      // Buffer the JSON body so the server can be closed before the response is sent.
      const payload = answerAsSent(await response.text(), Array.isArray(body));
      return new Response(payload.length > 0 ? payload : null, {
        status: response.status,
        headers,
      });
    } finally {
      await server.close();
    }
  };

  // Anything unexpected is a JSON-RPC internal error from the handler itself, so it stays a
  // proper MCP answer on any host (no framework error page, no stack trace to the client).
  return async (request, context = {}) => {
    try {
      return await handle(request, context);
    } catch (error) {
      options.onError?.(error);
      return jsonRpcError(500, -32603, 'Internal error: the server could not answer this request');
    }
  };
}
