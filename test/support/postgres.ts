// A throwaway PostgreSQL server for tests: Debian's binaries (installed by scripts/install-system-
// deps.sh), a cluster in a temporary directory, loopback only, started and stopped by the tests.
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** Connection URL of the `postgres` database (administration). */
  adminUrl: string;
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

function binDir(): string {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort()
    : [];
  const found = versions
    .reverse()
    .map((version) => `/usr/lib/postgresql/${version}/bin`)
    .find((dir) => existsSync(`${dir}/pg_ctl`));
  if (!found)
    throw new Error(
      'PostgreSQL is not installed: run `bash scripts/install-system-deps.sh` (Debian package postgresql).',
    );
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'reviews-pg-'));
  const run = (command: string, args: string[]) => {
    const full = path.join(bin, command);
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', full, ...args]]
      : [full, args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  if (asRoot) {
    const { uid, gid } = {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
    };
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
