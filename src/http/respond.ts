// Writing responses the same way everywhere: validators, conditional GET and HEAD (DECISIONS §5),
// CORS on every response, and JSON error bodies (DECISIONS §4).
import type { Request, Response } from 'express';
import type { Issue } from '../core/errors.ts';
import { isNotModified } from '../core/http-cache.ts';
import { CONTENT_TYPES } from '../core/site.ts';

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Link, Mcp-Session-Id',
} as const;

export interface Representation {
  body: Buffer | string;
  etag: string;
  type: string;
  cacheControl: string;
  lastModified?: Date | undefined;
  link?: string | undefined;
}

/** 200 with the body, or 304 when a validator matches; HEAD gets the same headers and no body. */
export function sendRepresentation(req: Request, res: Response, rep: Representation): void {
  res.setHeader('ETag', rep.etag);
  res.setHeader('Cache-Control', rep.cacheControl);
  if (rep.lastModified) res.setHeader('Last-Modified', rep.lastModified.toUTCString());
  if (rep.link) res.setHeader('Link', rep.link);
  const conditional = {
    ifNoneMatch: req.get('if-none-match'),
    ifModifiedSince: req.get('if-modified-since'),
  };
  if (isNotModified(conditional, rep.etag, rep.lastModified)) {
    res.status(304).end();
    return;
  }
  res.status(200);
  res.setHeader('Content-Type', rep.type);
  res.setHeader('Content-Length', Buffer.byteLength(rep.body));
  if (req.method === 'HEAD') res.end();
  else res.end(rep.body);
}

export function sendError(
  res: Response,
  status: number,
  error: string,
  message: string,
  issues: Issue[] = [],
): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ error, message, issues });
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
