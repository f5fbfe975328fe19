// Validators and conditional-request rules (RFC 9110 §8.8 and §13), shared by the static files,
// search, since and anything else the Node server answers with a body.
import { createHash } from 'node:crypto';

/** Strong ETag from the body bytes: same bytes, same ETag, on every build and instance. */
export function computeEtag(body: string | Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 §8.8.3.2 weak comparison: opaque tags equal, W/ prefixes ignored. */
function weakEquals(a: string, b: string): boolean {
  const strip = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return strip(a) === strip(b);
}

/** Entity tags of an If-None-Match value: `*`, or a comma list of (possibly weak) quoted tags. */
function parseEtagList(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  return header.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

export interface ConditionalRequest {
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
  ifMatch?: string | undefined;
  ifUnmodifiedSince?: string | undefined;
}

/**
 * Why a request's precondition fails, so that it must not be answered with the representation
 * (RFC 9110 §13.1.1, §13.1.4, §13.2.2: 412); undefined when it holds or none is given. If-Match
 * uses strong comparison (a weak tag never matches) and `*` holds for any representation;
 * If-Unmodified-Since counts only without If-Match, and an unparseable date is ignored.
 */
export function failedPrecondition(
  request: ConditionalRequest,
  etag: string,
  lastModified?: Date,
): string | undefined {
  if (request.ifMatch !== undefined) {
    const tags = parseEtagList(request.ifMatch);
    if (tags === '*' || tags.some((tag) => !tag.startsWith('W/') && tag === etag)) return undefined;
    return `If-Match: no tag listed is the current ETag ${etag}`;
  }
  if (request.ifUnmodifiedSince !== undefined && lastModified !== undefined) {
    const since = Date.parse(request.ifUnmodifiedSince);
    if (Number.isNaN(since)) return undefined;
    if (Math.floor(lastModified.getTime() / 1000) > Math.floor(since / 1000))
      return `If-Unmodified-Since: modified since, at ${lastModified.toUTCString()}`;
  }
  return undefined;
}

/**
 * True when a GET/HEAD may answer 304 (RFC 9110 §13.1.2, §13.1.3, §13.2.2): If-None-Match decides
 * when present (and If-Modified-Since is then ignored); otherwise If-Modified-Since compares at
 * one-second resolution. An unparseable date is ignored, as §13.1.3 requires, and so is a date
 * later than `now`, which §13.1.3 calls invalid: a client with a fast clock (or a guess) would
 * otherwise be told that nothing changed until its date passed.
 */
export function isNotModified(
  request: ConditionalRequest,
  etag: string,
  lastModified?: Date,
  now = Date.now(),
): boolean {
  if (request.ifNoneMatch !== undefined) {
    const tags = parseEtagList(request.ifNoneMatch);
    return tags === '*' || tags.some((tag) => weakEquals(tag, etag));
  }
  if (request.ifModifiedSince !== undefined && lastModified !== undefined) {
    const since = Date.parse(request.ifModifiedSince);
    if (Number.isNaN(since) || Math.floor(since / 1000) > Math.floor(now / 1000)) return false;
    return Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}
