// Node ↔ web-standard glue, so a `(Request) => Promise<Response>` handler (MCP) runs inside Express.
import { Readable } from 'node:stream';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { isReadMethod } from './rules.ts';

export function toWebRequest(req: ExpressRequest): Request {
  // Every line of a repeated header, as sent: Node's `headers` keeps only the first Content-Type
  // (and others) of several, which the handler would then read as the only one.
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct))
    for (const value of values ?? []) headers.append(name, value);
  const hasBody = !isReadMethod(req.method);
  const url = `http://${req.headers.host || 'localhost'}${req.originalUrl}`;
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  });
}

export async function sendWebResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  // Answered before the whole body arrived (413 past the limit): the rest of it would be read as
  // the next request on this connection, so the connection ends with the answer.
  if (!res.req.complete) res.setHeader('Connection', 'close');
  if (!response.body) {
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}
