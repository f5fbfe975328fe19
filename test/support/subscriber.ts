// A WebSub subscriber for tests: an HTTPS server whose paths are callbacks. Each callback records
// what the hub sent and answers as told (echo the challenge or not, a status, a redirect, a hang).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  at: number;
}

export interface CallbackBehaviour {
  /** How to answer a verification GET: echo the challenge (default), or a fixed answer. */
  verify?: 'echo' | 'wrong-body' | 'redirect' | 'hang' | number;
  /** Status codes for successive POSTs (the last one repeats); 'hang' never answers. */
  deliveries?: (number | 'hang')[];
  /** Milliseconds to wait before answering a POST. */
  delayMs?: number;
}

export class TestSubscriber {
  readonly received = new Map<string, Received[]>();
  readonly behaviours = new Map<string, CallbackBehaviour>();
  maxConcurrentPosts = new Map<string, number>();
  readonly #open = new Map<string, number>();
  #server: Server;
  url = '';

  constructor(tls: { key: Buffer; cert: Buffer }) {
    this.#server = createServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.url);
        const list = this.received.get(url.pathname) ?? [];
        list.push({
          method: req.method ?? '',
          url,
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        });
        this.received.set(url.pathname, list);
        const behaviour = this.behaviours.get(url.pathname) ?? {};
        if (req.method === 'GET') {
          const mode = url.searchParams.get('hub.mode');
          if (mode === 'denied') return void res.writeHead(200).end();
          const verify = behaviour.verify ?? 'echo';
          if (verify === 'hang') return;
          if (verify === 'redirect')
            return void res
              .writeHead(302, { Location: `${this.url}/elsewhere${url.search}` })
              .end();
          if (verify === 'wrong-body')
            return void res.writeHead(200).end(`${url.searchParams.get('hub.challenge')}x`);
          if (typeof verify === 'number')
            return void res.writeHead(verify).end(url.searchParams.get('hub.challenge'));
          return void res
            .writeHead(200, { 'Content-Type': 'text/plain' })
            .end(url.searchParams.get('hub.challenge'));
        }
        const posts = list.filter((entry) => entry.method === 'POST').length;
        const statuses = behaviour.deliveries ?? [200];
        const status = statuses[Math.min(posts - 1, statuses.length - 1)]!;
        const open = (this.#open.get(url.pathname) ?? 0) + 1;
        this.#open.set(url.pathname, open);
        this.maxConcurrentPosts.set(
          url.pathname,
          Math.max(this.maxConcurrentPosts.get(url.pathname) ?? 0, open),
        );
        if (status === 'hang') return;
        setTimeout(() => {
          this.#open.set(url.pathname, (this.#open.get(url.pathname) ?? 1) - 1);
          res.writeHead(status).end();
        }, behaviour.delayMs ?? 0);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `https://localhost:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  callback(pathName: string, behaviour: CallbackBehaviour = {}): string {
    this.behaviours.set(pathName, behaviour);
    return `${this.url}${pathName}`;
  }

  requests(pathName: string, method?: string, mode?: string): Received[] {
    return (this.received.get(pathName) ?? []).filter(
      (entry) =>
        (!method || entry.method === method) &&
        (!mode || entry.url.searchParams.get('hub.mode') === mode),
    );
  }

  async waitFor(
    pathName: string,
    method: string,
    count: number,
    timeoutMs = 10_000,
    mode?: string,
  ): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.requests(pathName, method, mode);
      if (found.length >= count) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(
      `waited ${timeoutMs} ms for ${count} ${method} ${mode ?? ''} on ${pathName}; got ${this.requests(pathName, method, mode).length}`,
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.closeAllConnections();
      this.#server.close(() => resolve());
    });
  }
}
