// Writing responses the same way everywhere: validators, conditional GET and HEAD (docs/decisions.md#http),
// CORS on every response, and JSON error bodies (docs/decisions.md#published-records).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Response } from 'express';
import { listedIssues, type Issue } from '../core/errors.ts';
import { failedPrecondition, isNotModified } from '../core/http-cache.ts';
import { CONTENT_TYPES } from '../core/site.ts';
import { CORS_HEADERS } from './rules.ts';

export { CORS_HEADERS } from './rules.ts';

/** A body in one buffer, or in parts written in order (a search answer's slices of a dataset). */
export type Body = Buffer | readonly Buffer[];

export interface Representation {
  body: Body;
  etag: string;
  type: string;
  cacheControl: string;
  lastModified?: Date | undefined;
  link?: string | undefined;
}

/** A representation with its headers computed once, for answers served many times. */
export interface PreparedRepresentation {
  body: Body;
  etag: string;
  lastModified: Date | undefined;
  /** Sent with 200 and 304 alike (RFC 9110 §15.4.5: validators, cache, Link, CORS). */
  headers: OutgoingHttpHeaders;
  /** Sent with 200 only. */
  entityHeaders: OutgoingHttpHeaders;
}

export function bodyLength(body: Body): number {
  if (Buffer.isBuffer(body)) return body.length;
  let length = 0;
  for (const part of body as readonly Buffer[]) length += part.length;
  return length;
}

export function prepareRepresentation(rep: Representation): PreparedRepresentation {
  return {
    body: rep.body,
    etag: rep.etag,
    lastModified: rep.lastModified,
    headers: {
      ...CORS_HEADERS,
      ETag: rep.etag,
      'Cache-Control': rep.cacheControl,
      ...(rep.lastModified ? { 'Last-Modified': rep.lastModified.toUTCString() } : {}),
      ...(rep.link ? { Link: rep.link } : {}),
    },
    entityHeaders: { 'Content-Type': rep.type, 'Content-Length': bodyLength(rep.body) },
  };
}

/** 200 with the body, or 304 when a validator matches; HEAD gets the same headers and no body. */
export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  rep: Representation | PreparedRepresentation,
): void {
  const prepared = 'headers' in rep ? rep : prepareRepresentation(rep);
  const conditional = {
    ifNoneMatch: req.headers['if-none-match'],
    ifModifiedSince: req.headers['if-modified-since'],
    ifMatch: req.headers['if-match'],
    ifUnmodifiedSince: req.headers['if-unmodified-since'],
  };
  const failed = failedPrecondition(conditional, prepared.etag, prepared.lastModified);
  if (failed !== undefined) {
    const body = JSON.stringify({
      error: 'precondition_failed',
      message: failed,
      issues: [{ path: [], code: 'precondition_failed', message: failed }],
    });
    res.writeHead(412, {
      ...CORS_HEADERS,
      ETag: prepared.etag,
      'Content-Type': CONTENT_TYPES.json,
      'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (isNotModified(conditional, prepared.etag, prepared.lastModified)) {
    res.writeHead(304, prepared.headers).end();
    return;
  }
  res.writeHead(200, { ...prepared.headers, ...prepared.entityHeaders });
  const { body } = prepared;
  if (req.method === 'HEAD') res.end();
  else if (Buffer.isBuffer(body)) res.end(body);
  else {
    // One write per part, gathered into as few socket writes as possible.
    res.cork();
    for (const part of body as readonly Buffer[]) res.write(part);
    res.end();
    res.uncork();
  }
}

export function sendError(
  res: Response,
  status: number,
  error: string,
  message: string,
  issues: Issue[] = [],
): void {
  if (res.headersSent) return;
  const { listed, more } = listedIssues(issues);
  const body = JSON.stringify({
    error,
    message:
      more > 0
        ? `${message} (${issues.length} issues; the first ${listed.length} are listed)`
        : message,
    issues: listed,
  });
  res.status(status);
  res.setHeader('Content-Type', CONTENT_TYPES.json);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

export function sendMethodNotAllowed(res: Response, allow: readonly string[]): void {
  res.setHeader('Allow', allow.join(', '));
  sendError(res, 405, 'method_not_allowed', `use ${allow.join(', ')} on this path`);
}
