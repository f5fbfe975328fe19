// `npm run bench:distinct` (part of `npm run bench`): search as a crawler or an assistant exploring
// the reviews meets it, where no answer cache helps. For each N it builds generated content, draws
// BENCH_DISTINCT_URLS distinct searches (search-mix.ts), checks a seeded sample of the answers
// against the oracle, then loads the service pinned to core 0 from core 1:
//   cached    BENCH_DISTINCT_CACHED of the URLs, each asked once before the run
//   uncached  every URL, round-robin from one counter shared by all connections: no cache smaller
//             than the URL count can answer any of them
// and the same uncached run against the peer a competent engineer would build instead: node:sqlite
// with an FTS5 trigram table (sqlite-peer.ts). It reports req/s, p50/p99 and the server's CPU per
// request, with the ratios between them, and writes bench-results/distinct-<time>.json. It also
// times, inside one process, the slowest single searches it can construct (search-cost.ts).
// Timings are reported, never asserted: the exit code is 1 only when an answer is wrong.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseBenchConfig } from './config.ts';
import { ensureContent } from './generate.ts';
import { expectedSearch, type OracleReview, type OracleTechnician } from './oracle.ts';
import {
  cpuSecondsOf,
  killAll,
  memoryOf,
  root,
  runLoad,
  SERVER_NODE_FLAGS,
  startProcess,
  stopProcess,
  waitForHttp,
  waitForIdleProcess,
  waitForQuiet,
  type Started,
} from './proc.ts';
import { searchMix, type MixQuery } from './search-mix.ts';
import { codeVersion, ensureBuild } from './site-build.ts';
import { measureSlowest, type SlowSearch } from './search-cost.ts';

const config = parseBenchConfig();
const SERVER_CPU = 0;
const LOAD_CPU = 1;
const work = path.join(root, 'bench-work');
const results = path.join(root, 'bench-results');
const log = (message: string) => process.stderr.write(`${message}\n`);

interface Run {
  target: 'service' | 'sqlite-fts5';
  urls: number;
  cached: boolean;
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p99: number;
  /** Server CPU time per answered request, µs. */
  serverUsPerRequest: number;
  /** Load generator CPU over wall time: near 1 means the figure is the generator's limit. */
  loaderCpu: number;
  non2xx: number;
  errors: number;
}

interface SizeReport {
  n: number;
  build: Awaited<ReturnType<typeof ensureBuild>>;
  service: { startupMs: number; rssAtStartMB: number; rssAfterMB: number };
  peer: { startupMs: number; rssMB: number };
  mix: Record<string, number>;
  checked: number;
  problems: string[];
  runs: Run[];
  slowest?: SlowSearch[];
}

interface Dataset {
  business: { technicians: OracleTechnician[]; services: { id: string }[] };
  reviews: (OracleReview & { service_ids: string[] })[];
}

async function start(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  url: string,
): Promise<{ proc: Started; ms: number }> {
  const began = performance.now();
  const proc = startProcess({ command: process.execPath, args, env, cpu: SERVER_CPU });
  await waitForHttp(url, proc, 600_000);
  const ms = performance.now() - began;
  log(`${name}: up in ${ms.toFixed(0)} ms, RSS ${memoryOf(proc.pid).rssMB.toFixed(0)} MB`);
  return { proc, ms };
}

/** Problems of one answer against the oracle (empty when it matches). */
async function check(base: string, search: MixQuery, dataset: Dataset): Promise<string[]> {
  const response = await fetch(`${base}${search.path}`);
  const body = (await response.json()) as { total?: number; reviews?: { id: string }[] };
  const expected = expectedSearch(dataset.reviews, dataset.business.technicians, search.query);
  const ids = (body.reviews ?? []).map((review) => review.id);
  if (response.status !== 200) return [`${search.path}: status ${response.status}`];
  if (body.total !== expected.total)
    return [`${search.path}: total ${body.total} (expected ${expected.total})`];
  if (JSON.stringify(ids) !== JSON.stringify(expected.ids))
    return [`${search.path}: ids differ from the oracle's`];
  return [];
}

async function load(
  target: Run['target'],
  proc: Started,
  base: string,
  paths: string[],
  cached: boolean,
): Promise<Run> {
  const file = path.join(work, `distinct-paths-${target}-${paths.length}.json`);
  writeFileSync(file, JSON.stringify(paths));
  await waitForIdleProcess(proc.pid, 60);
  await waitForQuiet(config.BENCH_QUIET_WAIT);
  const cpuBefore = cpuSecondsOf(proc.pid);
  const result = await runLoad(
    {
      url: base,
      method: 'GET',
      connections: config.BENCH_DISTINCT_CONNECTIONS,
      duration: config.BENCH_DURATION,
      timeout: 30,
      pathsFile: file,
    },
    LOAD_CPU,
  );
  const cpu = cpuSecondsOf(proc.pid) - cpuBefore;
  const run: Run = {
    target,
    urls: paths.length,
    cached,
    requestsPerSecond: result.requestsPerSecond,
    requests: result.requests,
    p50: result.p50,
    p99: result.p99,
    serverUsPerRequest: result.requests > 0 ? (cpu * 1e6) / result.requests : 0,
    loaderCpu: result.loaderCpu,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  log(
    `  ${target.padEnd(11)} ${String(paths.length).padStart(6)} URLs ${cached ? 'cached  ' : 'uncached'}: ${run.requestsPerSecond.toFixed(0).padStart(6)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.serverUsPerRequest.toFixed(0)} µs server CPU/request${run.non2xx + run.errors > 0 ? `, ${run.non2xx} non-2xx, ${run.errors} errors` : ''}${run.loaderCpu > 0.9 ? ' (load generator at its limit)' : ''}`,
  );
  return run;
}

async function benchSize(n: number): Promise<SizeReport> {
  log(`\n== distinct searches, N = ${n}`);
  const content = ensureContent({
    dir: path.join(work, `content-${n}`),
    n,
    seed: config.BENCH_SEED,
    sourceContentDir: path.join(root, 'content'),
  });
  // Ports (and so the build's SITE_URL) apart from the main benchmark's, in a build of its own;
  // the same for every N (one server runs at a time), so a build is reused whatever the sizes.
  const servicePort = config.BENCH_PORT + 100;
  const peerPort = servicePort + 1;
  const siteUrl = `http://127.0.0.1:${servicePort}`;
  const distDir = path.join(work, `distinct-dist-${n}`);
  const build = await ensureBuild({
    content,
    distDir,
    siteUrl,
    reuse: config.BENCH_REUSE_BUILD,
    log,
  });
  const slowest = await measureSlowest(distDir, log);

  const service = await start(
    'service',
    [...SERVER_NODE_FLAGS, 'src/server.ts'],
    {
      HOST: '127.0.0.1',
      PORT: String(servicePort),
      SITE_URL: siteUrl,
      DIST_DIR: distDir,
      DATA_DIR: path.join(work, `distinct-data-${n}`),
      MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      LOG_LEVEL: 'warn',
    },
    `${siteUrl}/healthz`,
  );
  const report: SizeReport = {
    n,
    build,
    service: {
      startupMs: service.ms,
      rssAtStartMB: memoryOf(service.proc.pid).rssMB,
      rssAfterMB: 0,
    },
    peer: { startupMs: 0, rssMB: 0 },
    mix: {},
    checked: 0,
    problems: [],
    runs: [],
    slowest,
  };
  try {
    const dataset = (await (await fetch(`${siteUrl}/reviews.json`)).json()) as Dataset;
    const mix = searchMix({
      reviews: dataset.reviews,
      technicians: dataset.business.technicians,
      services: dataset.business.services.map((service) => service.id),
      count: config.BENCH_DISTINCT_URLS,
      seed: config.BENCH_SEED,
    });
    for (const search of mix) report.mix[search.kind] = (report.mix[search.kind] ?? 0) + 1;
    const cachedSet = mix.slice(0, config.BENCH_DISTINCT_CACHED);
    const step = Math.max(1, Math.floor(mix.length / config.BENCH_DISTINCT_CHECKS));
    const sample = mix.filter((_, k) => k % step === 0).slice(0, config.BENCH_DISTINCT_CHECKS);

    for (const search of sample) report.problems.push(...(await check(siteUrl, search, dataset)));
    report.checked = sample.length;
    log(`service: ${sample.length} sampled answers checked, ${report.problems.length} wrong`);
    for (const search of cachedSet) await (await fetch(`${siteUrl}${search.path}`)).arrayBuffer();
    const paths = mix.map((search) => search.path);
    report.runs.push(
      await load('service', service.proc, siteUrl, paths.slice(0, cachedSet.length), true),
    );
    report.runs.push(await load('service', service.proc, siteUrl, paths, false));
    report.service.rssAfterMB = memoryOf(service.proc.pid).rssMB;
    await stopProcess(service.proc);

    const peerUrl = `http://127.0.0.1:${peerPort}`;
    const peer = await start(
      'sqlite-fts5',
      ['scripts/bench/sqlite-peer.ts', distDir, String(peerPort)],
      {},
      `${peerUrl}/api/reviews/search?limit=1`,
    );
    report.peer = { startupMs: peer.ms, rssMB: memoryOf(peer.proc.pid).rssMB };
    const peerProblems: string[] = [];
    for (const search of sample) peerProblems.push(...(await check(peerUrl, search, dataset)));
    log(`sqlite-fts5: ${sample.length} sampled answers checked, ${peerProblems.length} wrong`);
    report.problems.push(...peerProblems.map((problem) => `sqlite-fts5 ${problem}`));
    report.runs.push(await load('sqlite-fts5', peer.proc, peerUrl, paths, false));
    await stopProcess(peer.proc);
  } finally {
    await stopProcess(service.proc);
  }
  return report;
}

function summary(size: SizeReport): string {
  const find = (target: Run['target'], cached: boolean) =>
    size.runs.find((run) => run.target === target && run.cached === cached);
  const cached = find('service', true);
  const uncached = find('service', false);
  const peer = find('sqlite-fts5', false);
  const lines = [
    `\nN = ${size.n}: distinct searches (${Object.entries(size.mix)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ')})`,
    '| run | req/s | p50 | p99 | server CPU per request |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const run of size.runs)
    lines.push(
      `| ${run.target}, ${run.urls} URLs, ${run.cached ? 'each asked before (cached)' : 'round-robin (uncached)'} | ${run.requestsPerSecond.toFixed(0)} | ${run.p50} ms | ${run.p99} ms | ${run.serverUsPerRequest.toFixed(0)} µs |`,
    );
  if (cached && uncached)
    lines.push(
      `uncached ÷ cached req/s: ${(uncached.requestsPerSecond / cached.requestsPerSecond).toFixed(2)} (target ≥ 0.30); uncached p99 ${uncached.p99} ms (target ≤ 25 ms at 10k)`,
    );
  if (uncached && peer)
    lines.push(
      `service ÷ sqlite-fts5 uncached req/s: ${(uncached.requestsPerSecond / peer.requestsPerSecond).toFixed(1)}× (target ≥ 10×); server CPU per request ${(peer.serverUsPerRequest / Math.max(1, uncached.serverUsPerRequest)).toFixed(1)}× less`,
    );
  if (size.slowest?.length) {
    const worst = size.slowest[0]!;
    lines.push(
      `slowest single search: ${worst.label} ${worst.maxMs.toFixed(2)} ms (median ${worst.medianMs.toFixed(2)} ms)`,
    );
  }
  lines.push(
    `service: start ${size.service.startupMs.toFixed(0)} ms, RSS ${size.service.rssAtStartMB.toFixed(0)} MB at start, ${size.service.rssAfterMB.toFixed(0)} MB after; build ${size.build.seconds.toFixed(0)} s, peak ${size.build.peakRssMB.toFixed(0)} MB${size.build.reused ? ' (reused)' : ''}`,
  );
  if (size.problems.length > 0)
    lines.push(`WRONG ANSWERS: ${size.problems.slice(0, 10).join('; ')}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  mkdirSync(work, { recursive: true });
  mkdirSync(results, { recursive: true });
  const sizes: SizeReport[] = [];
  for (const n of config.BENCH_DISTINCT_SIZES) {
    const size = await benchSize(n);
    sizes.push(size);
    log(summary(size));
  }
  const file = path.join(results, `distinct-${Date.now()}.json`);
  writeFileSync(file, `${JSON.stringify({ code: codeVersion(), config, sizes }, null, 2)}\n`);
  process.stdout.write(
    `${sizes.map(summary).join('\n')}\n\nreport: ${path.relative(root, file)}\n`,
  );
  if (sizes.some((size) => size.problems.length > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  killAll();
  console.error(error);
  process.exit(1);
});
