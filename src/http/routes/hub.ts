// POST /api/websub/hub: reads the form (bounded), hands it to the hub, answers in plain text.
import type { Request, Response } from 'express';
import type { Hub } from '../../hub/hub.ts';
import { isStoreUnavailable } from '../../hub/store.ts';
import { CONTENT_TYPES } from '../../core/site.ts';
import { clientAddress, type TrustProxy } from '../client-address.ts';
import { nodeChunks, readBounded } from '../bounded-body.ts';
import {
  ENCODED_BODY_MESSAGE,
  declaresTooLarge,
  declaresUtf8,
  isEncodedBody,
  mediaTypeOf,
} from '../rules.ts';

/** A hub request is a short form: callback (≤ 2 KiB), topic, lease and a secret under 200 bytes. */
export const HUB_MAX_BODY_BYTES = 16 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export const STORE_UNAVAILABLE_MESSAGE =
  "the hub's store is busy or unreachable; nothing was recorded, retry in a few seconds";

export const MALFORMED_FORM_MESSAGE =
  'the form body is not valid percent-encoded UTF-8: escape each byte as % and two hex digits, and write % itself as %25';

/**
 * The hub request's fields, or undefined when the body is not UTF-8 or holds a malformed escape.
 * URLSearchParams would read either as U+FFFD or as typed: a secret of other bytes would then
 * sign with a key the subscriber does not hold, and two different secrets with the same one.
 */
function formOf(bytes: Buffer): URLSearchParams | undefined {
  let body: string;
  try {
    body = UTF8.decode(bytes);
    for (const pair of body.split('&')) decodeURIComponent(pair.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
  return new URLSearchParams(body);
}

function sendText(
  res: Response,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res
    .status(status)
    .set({ 'Content-Type': CONTENT_TYPES.text, 'Cache-Control': 'no-store', ...headers });
  res.end(body.endsWith('\n') ? body : `${body}\n`);
}

export function createHubRoute(hub: Hub, trust: TrustProxy) {
  return async (req: Request, res: Response): Promise<void> => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST, OPTIONS');
      return sendText(res, 405, 'use POST with an application/x-www-form-urlencoded body');
    }
    // All lines of a repeated Content-Type, joined, so that a second one refuses the request: Node
    // keeps only the first, and a proxy in front may have read the last.
    const contentType = req.headersDistinct['content-type']?.join(', ');
    if (
      mediaTypeOf(contentType) !== 'application/x-www-form-urlencoded' ||
      !declaresUtf8(contentType)
    ) {
      return sendText(
        res,
        415,
        'Content-Type must be application/x-www-form-urlencoded (in UTF-8, the only charset read)',
      );
    }
    if (isEncodedBody(req.get('content-encoding')))
      return sendText(res, 415, ENCODED_BODY_MESSAGE, { 'Accept-Encoding': 'identity' });
    if (declaresTooLarge(req.get('content-length'), HUB_MAX_BODY_BYTES)) {
      res.setHeader('Connection', 'close');
      return sendText(res, 413, `hub requests are limited to ${HUB_MAX_BODY_BYTES} bytes`);
    }
    const bytes = await readBounded(nodeChunks(req), HUB_MAX_BODY_BYTES);
    if (bytes === undefined) {
      res.setHeader('Connection', 'close');
      return sendText(res, 413, `hub requests are limited to ${HUB_MAX_BODY_BYTES} bytes`);
    }
    const form = formOf(bytes);
    if (form === undefined) return sendText(res, 400, MALFORMED_FORM_MESSAGE);
    let answer;
    try {
      answer = await hub.handle(form, clientAddress(req, trust));
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      return sendText(res, 503, STORE_UNAVAILABLE_MESSAGE, { 'Retry-After': '5' });
    }
    sendText(res, answer.status, answer.body, answer.headers);
  };
}
