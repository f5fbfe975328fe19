// The HTTP rules every part of the server shares: the Express routes, the fast path in front of
// them and the web-standard MCP handler (which must also run alone on a serverless host). CORS on
// every answer, the preflight, the body limit, media types and read methods each have one home
// here. No I/O of its own.

/** Sent on every answer, errors included (docs/decisions.md#http). */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Link, Mcp-Session-Id',
} as const;

/** The answer to an OPTIONS preflight, for the site and API paths (all of them read-only). */
export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers':
    'Content-Type, Accept, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
} as const;

/** The preflight of the WebSub hub, which accepts POST only. */
export const HUB_PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
} as const;

/** The preflight of /mcp, which accepts POST only. */
export const MCP_PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version',
  'Access-Control-Max-Age': '86400',
} as const;

/** Largest request body any endpoint accepts (MCP and hub requests are small forms or JSON-RPC). */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** Methods a read-only path answers (OPTIONS being the preflight). */
export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/** GET or HEAD: the methods that read. */
export function isReadMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** The media type of a Content-Type value, lower-cased, without parameters ('' when absent). */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether an Accept header lists a media type by name with a weight above zero. Ranges (such as
 * `application/` followed by a star) do not count: a client that names neither type has not said
 * it reads it. `q=0` means "not acceptable" (RFC 9110 §12.4.2), so a type listed only with it is refused.
 */
export function acceptsMediaType(accept: string | null | undefined, mediaType: string): boolean {
  for (const entry of (accept ?? '').split(',')) {
    const [type, ...parameters] = entry.split(';');
    if (type!.trim().toLowerCase() !== mediaType) continue;
    const q = parameters
      .map((parameter) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter)?.[1])
      .find((value) => value !== undefined);
    if (q === undefined || Number(q) > 0) return true;
  }
  return false;
}

/**
 * A request body sent with a content coding (gzip, br, …) other than identity: no endpoint
 * decodes one, so it is refused with 415 rather than read as if it were plain (RFC 9110 §8.4).
 */
export function isEncodedBody(contentEncoding: string | null | undefined): boolean {
  return (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .some((coding) => coding !== '' && coding !== 'identity');
}

/** What a request whose body has a content coding is told. */
export const ENCODED_BODY_MESSAGE =
  'Content-Encoding is not supported on requests: send the body uncompressed';

/**
 * Whether a Content-Type's charset, if it names one, is UTF-8: every body is read as UTF-8, so one
 * declared in another charset is refused (415) rather than misread.
 */
export function declaresUtf8(contentType: string | null | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** A declared Content-Length over `limit` (the body is then refused before it is read). */
export function declaresTooLarge(contentLength: string | null | undefined, limit: number): boolean {
  return Number(contentLength ?? 0) > limit;
}
