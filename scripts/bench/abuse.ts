// The "abuse" benchmark: while ABUSE_CLIENTS clients repeat the most expensive requests each public
// endpoint accepts (MCP batches of the largest tools, get_reviews_since 1900-01-01, searches with
// every filter, the since endpoint from 1900, error-amplifying URLs) for ABUSE_SECONDS, a /healthz
// request every 100 ms measures what everyone else meets. Reported: /healthz p50/p99 idle (the
// baseline, same run) and under abuse, their ratio, resident memory at start and at its peak, and
// the answers the abusers got. Targets: /healthz p99 ≤ 100 ms and RSS < start + 300 MB.
//
//   npm run bench:abuse
//   ABUSE_N=10000 ABUSE_SECONDS=30 ABUSE_CLIENTS=16 ABUSE_PORT=47300
//   ABUSE_SERVER_DIR=/path/to/other/checkout   run that checkout's server (same build) instead
//   ABUSE_ENV='MCP_RATE_LIMIT_PER_MINUTE=1000000'  extra server environment (e.g. limits off)
//
// The content of N reviews is shared with `npm run bench` (bench-work/content-N); the build is
// redone each run unless ABUSE_REUSE_BUILD=1.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { ensureContent } from './generate.ts';
import {
  memoryOf,
  root,
  SERVER_NODE_FLAGS,
  startProcess,
  stopProcess,
  timedBuild,
  waitForHttp,
} from './proc.ts';

const env = process.env;
const N = Number(env['ABUSE_N'] ?? 10_000);
const SECONDS = Number(env['ABUSE_SECONDS'] ?? 30);
const CLIENTS = Number(env['ABUSE_CLIENTS'] ?? 16);
const PORT = Number(env['ABUSE_PORT'] ?? 47300);
const SERVER_DIR = path.resolve(env['ABUSE_SERVER_DIR'] ?? root);
const EXTRA_ENV = Object.fromEntries(
  (env['ABUSE_ENV'] ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split('=', 2) as [string, string]),
);
for (const [name, value] of [
  ['ABUSE_N', N],
  ['ABUSE_SECONDS', SECONDS],
  ['ABUSE_CLIENTS', CLIENTS],
  ['ABUSE_PORT', PORT],
] as const) {
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name}: expected a positive whole number`);
}

const work = path.join(root, 'bench-work');
const base = `http://127.0.0.1:${PORT}`;
const ACCEPT = 'application/json, text/event-stream';
const SECRET = 'abuse-benchmark-session-secret';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function rpc(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
  });
}

async function sessionFor(version: string): Promise<Record<string, string>> {
  const response = await rpc({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: 'abuse', version: '1' },
    },
  });
  await response.arrayBuffer();
  const id = response.headers.get('mcp-session-id');
  return id ? { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': version } : {};
}

type Attack = (client: number, round: number) => Promise<Response>;

function attacks(sessions: {
  old: Record<string, string>;
  current: Record<string, string>;
}): [string, Attack][] {
  const call = (id: number, name: string, args: unknown) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const junk = Array.from({ length: 1500 }, (_, i) => `${i.toString(36)}=`).join('&');
  return [
    [
      'MCP batch of 100 × get_reviews_since 1900-01-01',
      () =>
        rpc(
          Array.from({ length: 100 }, (_, i) =>
            call(i + 2, 'get_reviews_since', { date: '1900-01-01', limit: 100 }),
          ),
          sessions.old,
        ),
    ],
    [
      'MCP batch of 100 × get_insights',
      () =>
        rpc(
          Array.from({ length: 100 }, (_, i) => call(i + 2, 'get_insights', {})),
          sessions.old,
        ),
    ],
    [
      'MCP get_reviews_since 1900-01-01, 100 a page',
      () => rpc(call(2, 'get_reviews_since', { date: '1900-01-01', limit: 100 }), sessions.current),
    ],
    [
      'MCP resources/read reviews.json',
      () =>
        rpc(
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'resources/read',
            params: { uri: `${base}/reviews.json` },
          },
          sessions.current,
        ),
    ],
    [
      'search with every filter (distinct)',
      (client, round) =>
        fetch(
          `${base}/api/reviews/search?query=${['e', 'ro', 'lea', 'the', 'a'][round % 5]}${client}&min_rating=1&since=1900-01-01&until=2100-12-31&mentions_service=roof-replacement&limit=100`,
        ),
    ],
    ['GET /api/reviews/since/1900-01-01', () => fetch(`${base}/api/reviews/since/1900-01-01`)],
    [
      'search with 1,500 unknown parameters (7 KB of URL)',
      () => fetch(`${base}/api/reviews/search?${junk}`),
    ],
  ];
}

async function main(): Promise<void> {
  mkdirSync(work, { recursive: true });
  const content = ensureContent({
    dir: path.join(work, `content-${N}`),
    n: N,
    sourceContentDir: path.join(root, 'content'),
  });
  const distDir = path.join(work, `abuse-dist-${N}`);
  // Rebuilt every run (the code may have changed) unless ABUSE_REUSE_BUILD=1 and a build exists.
  const reuse =
    env['ABUSE_REUSE_BUILD'] === '1' && existsSync(path.join(distDir, 'site-manifest.json'));
  if (!reuse) {
    rmSync(distDir, { recursive: true, force: true });
    console.log(`build: ${N} reviews → ${path.relative(root, distDir)} …`);
    const build = await timedBuild({ CONTENT_DIR: content.dir, DIST_DIR: distDir, SITE_URL: base });
    if (build.exitCode !== 0) throw new Error(`build failed:\n${build.log.slice(-2000)}`);
  }
  const dataDir = path.join(work, `abuse-data-${PORT}`);
  rmSync(dataDir, { recursive: true, force: true });
  const server = startProcess({
    command: process.execPath,
    args: [...SERVER_NODE_FLAGS, path.join(SERVER_DIR, 'src/server.ts')],
    cwd: SERVER_DIR,
    // The server gets core 0 to itself; the abusers and the probe share the other core.
    cpu: 0,
    env: {
      HOST: '127.0.0.1',
      PORT: String(PORT),
      SITE_URL: base,
      DIST_DIR: distDir,
      DATA_DIR: dataDir,
      MCP_SESSION_SECRET: SECRET,
      LOG_LEVEL: 'silent',
      ...EXTRA_ENV,
    },
  });
  try {
    await waitForHttp(`${base}/healthz`, server);
    const rssStart = memoryOf(server.pid).rssMB;

    // /healthz every 100 ms from a process of its own, raised in priority so that the abusers
    // (this process) delay it as little as possible: a few seconds idle (the baseline), then
    // under abuse.
    const probe = async (seconds: number): Promise<number[]> => {
      const child = startProcess({
        command: process.execPath,
        args: [
          path.join(root, 'scripts/bench/healthz-probe.ts'),
          `${base}/healthz`,
          String(seconds),
        ],
        cpu: 1,
      });
      try {
        setPriority(child.pid, -10);
      } catch {
        // not permitted: the figures are then a little pessimistic
      }
      await child.exited;
      return (JSON.parse(child.output().trim().split('\n').at(-1)!) as number[]).sort(
        (a, b) => a - b,
      );
    };
    const idle = await probe(5);

    const sessions = {
      old: await sessionFor('2025-03-26'),
      current: await sessionFor('2025-11-25'),
    };
    const mix = attacks(sessions);
    const statuses: Record<string, Record<string, number>> = {};
    let answerBytes = 0;
    let rssPeak = rssStart;
    const sampler = setInterval(() => {
      try {
        rssPeak = Math.max(rssPeak, memoryOf(server.pid).rssMB);
      } catch {
        // the process may be gone; the probe reports it
      }
    }, 250);
    const deadline = performance.now() + SECONDS * 1000;
    const abusers = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let round = 0; performance.now() < deadline; round += 1) {
        const [name, attack] = mix[(client + round) % mix.length]!;
        const counts = (statuses[name] ??= {});
        try {
          const response = await attack(client, round);
          answerBytes += (await response.arrayBuffer()).byteLength;
          counts[response.status] = (counts[response.status] ?? 0) + 1;
        } catch {
          counts['error'] = (counts['error'] ?? 0) + 1;
        }
      }
    });
    const underLoad = await probe(SECONDS);
    await Promise.all(abusers);
    clearInterval(sampler);
    const rssAfter = memoryOf(server.pid).rssMB;

    const figures = {
      n: N,
      seconds: SECONDS,
      clients: CLIENTS,
      server: path.relative(root, SERVER_DIR) || '.',
      serverEnv: EXTRA_ENV,
      healthz: {
        idle: { p50: percentile(idle, 50), p99: percentile(idle, 99), samples: idle.length },
        abused: {
          p50: percentile(underLoad, 50),
          p99: percentile(underLoad, 99),
          max: underLoad.at(-1),
          samples: underLoad.length,
        },
        p99RatioToIdle: percentile(underLoad, 99) / percentile(idle, 99),
      },
      rssMB: { start: rssStart, peak: rssPeak, after: rssAfter, growth: rssPeak - rssStart },
      answerMB: answerBytes / 1e6,
      statuses,
      targets: {
        healthzP99Under100ms: percentile(underLoad, 99) <= 100,
        rssGrowthUnder300MB: rssPeak - rssStart < 300,
      },
    };
    const out = path.join(root, 'bench-results');
    mkdirSync(out, { recursive: true });
    const file = path.join(out, `abuse-${N}-${Date.now()}.json`);
    writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
    const ms = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(1)} ms`;
    console.log(
      `\nabuse: ${CLIENTS} clients × ${SECONDS} s, ${N} reviews, server ${figures.server}`,
    );
    console.log(
      `  /healthz idle     p50 ${ms(figures.healthz.idle.p50)}  p99 ${ms(figures.healthz.idle.p99)}`,
    );
    console.log(
      `  /healthz abused   p50 ${ms(figures.healthz.abused.p50)}  p99 ${ms(figures.healthz.abused.p99)}  max ${ms(figures.healthz.abused.max)}  (p99 ${figures.healthz.p99RatioToIdle.toFixed(1)}× idle; target ≤ 100 ms: ${figures.targets.healthzP99Under100ms ? 'met' : 'MISSED'})`,
    );
    console.log(
      `  RSS start ${rssStart.toFixed(0)} MB, peak ${rssPeak.toFixed(0)} MB (+${figures.rssMB.growth.toFixed(0)}; target < +300: ${figures.targets.rssGrowthUnder300MB ? 'met' : 'MISSED'}), after ${rssAfter.toFixed(0)} MB`,
    );
    console.log(`  answers to the abusers: ${figures.answerMB.toFixed(1)} MB`);
    for (const [name, counts] of Object.entries(statuses))
      console.log(`    ${name.padEnd(50)} ${JSON.stringify(counts)}`);
    console.log(`report: ${path.relative(root, file)}`);
  } finally {
    await stopProcess(server);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
