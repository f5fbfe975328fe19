// The Node server's connection limits, with short deadlines: a client that never finishes its
// headers is cut off, and one peer cannot hold more than its share of connections.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { clientErrorAnswer, createNodeServer } from '../../src/http/node-server.ts';

const server = createNodeServer((_req, res) => res.end('ok'), {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  keepAliveTimeoutMs: 200,
  maxConnections: 100,
  maxConnectionsPerPeer: 5,
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

const closed = (socket: Socket) =>
  new Promise<number>((resolve) => {
    const started = Date.now();
    socket.once('close', () => resolve(Date.now() - started));
  });

test('a client that sends its headers slowly (slowloris) is cut off at the headers deadline', async () => {
  const socket = await open();
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
  const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
  const after = await closed(socket);
  clearInterval(drip);
  expect(after).toBeLessThan(3_000);
});

test('one peer holds at most its share of connections; the rest are closed at once', async () => {
  const sockets = await Promise.all(Array.from({ length: 8 }, () => open()));
  const outcomes = await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<string>((resolve) => {
          socket.once('close', () => resolve('closed'));
          socket.once('data', () => resolve('answered'));
          socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
        }),
    ),
  );
  expect(outcomes.filter((outcome) => outcome === 'answered')).toHaveLength(5);
  expect(outcomes.filter((outcome) => outcome === 'closed')).toHaveLength(3);
  for (const socket of sockets) socket.destroy();
});

test('CONNECT is answered 405 and the connection closed, not dropped without a word', async () => {
  // The last test's connections count against this peer's share until the server sees them close.
  for (;;) {
    const count = await new Promise<number>((resolve) =>
      server.getConnections((_error, n) => resolve(n)),
    );
    if (count === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const socket = await open();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  socket.write('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
  await closed(socket);
  expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  expect(answer).toContain('Allow: GET, HEAD, POST, OPTIONS');
  // As every other error: JSON, with the CORS headers a browser needs to read it.
  expect(answer).toContain('Content-Type: application/json; charset=utf-8');
  expect(answer).toContain('Access-Control-Allow-Origin: *');
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string };
  expect(body).toMatchObject({
    error: 'method_not_allowed',
    message: expect.stringContaining('not a proxy'),
  });
});

/** What the server answers to `raw` before it closes the connection. */
async function answerTo(raw: string | Buffer): Promise<string> {
  const socket = await open();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  socket.on('error', () => {});
  socket.write(raw);
  await closed(socket);
  return answer;
}

test.each([
  [
    'a URL too long for the header limit',
    `GET /api/reviews/search?query=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    '414 URI Too Long',
    'uri_too_long',
  ],
  [
    'headers too large in all',
    `GET / HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 40 }, (_, i) => `X-Big-${i}: ${'b'.repeat(500)}\r\n`).join('')}\r\n`,
    '431 Request Header Fields Too Large',
    'headers_too_large',
  ],
  [
    'a method no server knows',
    'FOO / HTTP/1.1\r\nHost: x\r\n\r\n',
    '501 Not Implemented',
    'unknown_method',
  ],
  [
    'a URL with raw characters outside ASCII',
    Buffer.from('GET /api/reviews/search?query=CAFÉ HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8'),
    '400 Bad Request',
    'invalid_request',
  ],
])(
  'a request the parser cannot read (%s) gets a JSON answer a browser can read',
  async (_name, raw, status, error) => {
    const answer = await answerTo(raw);
    expect(answer.startsWith(`HTTP/1.1 ${status}\r\n`), answer.slice(0, 80)).toBe(true);
    expect(answer).toContain('Access-Control-Allow-Origin: *\r\n');
    expect(answer).toContain('Content-Type: application/json; charset=utf-8\r\n');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
      error: string;
      message: string;
    };
    expect(body.error).toBe(error);
    expect(body.message.length).toBeGreaterThan(10);
  },
);

test('headers that do not arrive in time get a 408 before the connection closes', async () => {
  const answer = await answerTo('GET / HTTP/1.1\r\nHost: x\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(answer).toContain('"error":"request_timeout"');
});

test('a head too large is a long URL only when the packet read starts with a long request line', () => {
  const status = (packet: string) =>
    clientErrorAnswer('HPE_HEADER_OVERFLOW', Buffer.from(packet, 'latin1')).status;
  expect(status(`GET /?q=${'a'.repeat(9_000)}`)).toBe(414);
  expect(status(`GET /?q=${'a'.repeat(9_000)} HTTP/1.1\r\nHost: x\r\n`)).toBe(414);
  expect(status(`GET / HTTP/1.1\r\nX-Big: ${'b'.repeat(20_000)}`)).toBe(431);
  // A later packet of one long header value, without a line end of its own.
  expect(status('b'.repeat(20_000))).toBe(431);
});
