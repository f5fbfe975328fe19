// Runs the real server (src/server.ts) as a child process, as the hub needs: NODE_EXTRA_CA_CERTS is
// read at process start, and durability tests kill it with SIGKILL and start it again.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { FIXTURE_SITE_URL, ROOT } from './build-site.ts';

export interface HubProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Rows of a table in the hub's sqlite file, read from the outside. */
  rows(sql: string, ...params: (string | number)[]): Record<string, unknown>[];
  subscribe(fields: Record<string, string>): Promise<Response>;
  post(body: string, contentType?: string): Promise<Response>;
}

export function newDataDir(): string {
  return mkdtempSync(path.join(ROOT, 'test-results', 'hub-data-'));
}

export async function startHubProcess(options: {
  distDir: string;
  caFile: string;
  dataDir?: string;
  env?: Record<string, string>;
}): Promise<HubProcess> {
  const dataDir = options.dataDir ?? newDataDir();
  const child = spawn(process.execPath, [path.join(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SITE_URL: FIXTURE_SITE_URL,
      DIST_DIR: options.distDir,
      DATA_DIR: dataDir,
      NODE_EXTRA_CA_CERTS: options.caFile,
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: '1',
      WEBSUB_RETRY_DELAYS_MS: '100,200',
      WEBSUB_TIMEOUT_MS: '2000',
      WEBSUB_RATE_LIMIT_PER_MINUTE: '10000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /on (http:\/\/[^\s]+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  const hubUrl = `${url}/api/websub/hub`;
  return {
    url,
    dataDir,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
    rows(sql, ...params) {
      const db = new DatabaseSync(path.join(dataDir, 'hub.sqlite'), { readOnly: true });
      try {
        return db.prepare(sql).all(...params) as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    subscribe: (fields) =>
      fetch(hubUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    post: (body, contentType = 'application/x-www-form-urlencoded') =>
      fetch(hubUrl, { method: 'POST', headers: { 'Content-Type': contentType }, body }),
  };
}
