// The benchmark's ceiling: a minimal node:http server that answers each scenario with the exact
// status, headers and body bytes the real service gave for it, from a Map keyed by method and URL.
// Nothing is parsed or computed per request (a POST body is read and dropped), so its req/s is the
// most any Node server can do for these answers on this core.
//   node scripts/bench/ceiling-server.ts <answers-dir> [port]
// <answers-dir>/index.json lists { method, url, status, headers, file } with the body in <file>.
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import path from 'node:path';

export interface CeilingAnswer {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Body file, relative to the answers directory. */
  file: string;
}

const [dir, portArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/bench/ceiling-server.ts <answers-dir> [port]');
  process.exit(2);
}

interface Ready {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

const answers = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as CeilingAnswer[];
const ready = new Map<string, Ready>();
for (const answer of answers) {
  const body = readFileSync(path.join(dir, answer.file));
  ready.set(`${answer.method} ${answer.url}`, {
    status: answer.status,
    headers: { ...answer.headers, 'content-length': String(body.length) },
    body,
  });
}

const server = createServer((req, res) => {
  const answer = ready.get(`${req.method} ${req.url}`);
  const send = () => {
    if (!answer) {
      res.writeHead(404, { 'content-type': 'text/plain', 'content-length': '9' });
      res.end('not found');
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  if (req.method === 'POST') {
    req.resume();
    req.on('end', send);
  } else send();
});
server.keepAliveTimeout = 60_000;
server.listen(Number(portArg ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`ceiling: ${ready.size} answers on http://127.0.0.1:${port}`);
});
process.once('SIGINT', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0));
