// `npm run bench`: the performance benchmark. For each N it generates deterministic
// synthetic content, builds it (time, peak memory), starts the built server pinned to core 0
// (start-up time, resident memory), checks every scenario's answer against an independent oracle,
// then loads it from core 1 with autocannon, beside two baselines on the same core: a ceiling that
// answers the service's exact bytes from memory, and json-server 0.17 with equivalent filters.
// Prints a table per N and writes bench-results/report-<timestamp>.json and latest.json.
//
//   BENCH_SIZES=1000,10000,100000   sizes N
//   BENCH_DURATION=10                seconds per timed run (BENCH_WARMUP=2 s of warm-up first)
//   BENCH_ROUNDS=1                   timed runs per scenario and target; the best one is kept
//   BENCH_QUIET_WAIT=20              seconds to wait at most for idle cores before each run
//   BENCH_CONNECTIONS=50  BENCH_SEED=…  BENCH_PORT=47100 (three ports per N from there)
//   BENCH_TARGETS=service,ceiling,json-server
//   BENCH_SCENARIOS=leak,mcp         only the scenarios whose name contains one of these
//   BENCH_REUSE_BUILD=1              skip a build whose content, SITE_URL and code (src/,
//                                    scripts/build.ts, lock file) are unchanged; its earlier
//                                    figures are reported
//
// Timings are reported, never asserted: the exit code is 1 only when an answer is wrong.
import { cpus, loadavg, totalmem } from 'node:os';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureContent, type ContentSet } from './generate.ts';
import { parseBenchConfig } from './config.ts';
import { codeVersion, ensureBuild } from './site-build.ts';
import {
  fmtInt,
  growth,
  pct,
  printGrowth,
  printSize,
  type Outcome,
  type ScenarioReport,
  type SizeReport,
} from './report.ts';
import { evaluateTargets, printTargets } from './targets.ts';
import type { LoadOptions } from './load.ts';
import { newestFirst, type OracleReview, type OracleTechnician } from './oracle.ts';
import {
  HAS_TASKSET,
  coreTimes,
  coreUse,
  cpuSecondsOf,
  killAll,
  memoryOf,
  root,
  runLoad,
  SERVER_NODE_FLAGS,
  startProcess,
  stopProcess,
  waitForIdleProcess,
  waitForQuiet,
  waitForHttp,
  type Started,
} from './proc.ts';
import {
  buildScenarios,
  checkCeiling,
  checkJsonServer,
  checkService,
  mcpCallBody,
  openMcpSession,
  send,
  type Oracle,
  type ReceivedAnswer,
  type Scenario,
  type Target,
} from './scenarios.ts';
import type { CeilingAnswer } from './ceiling-server.ts';

const config = parseBenchConfig();
const SIZES = config.BENCH_SIZES;
const DURATION = config.BENCH_DURATION;
const WARMUP = config.BENCH_WARMUP;
const ROUNDS = config.BENCH_ROUNDS;
const QUIET_WAIT = config.BENCH_QUIET_WAIT;
const CONNECTIONS = config.BENCH_CONNECTIONS;
const SEED = config.BENCH_SEED;
const PORT_BASE = config.BENCH_PORT;
const REUSE_BUILD = config.BENCH_REUSE_BUILD;
const SCENARIOS = config.BENCH_SCENARIOS;
const ENABLED = new Set(config.BENCH_TARGETS);
const SESSION_SECRET = 'bench-session-secret-0123456789abcdef';
const SERVER_CPU = 0;
const LOAD_CPU = 1;
const TIMEOUT_S = 30;
/** Connections are capped so that at most this many answer bytes are in flight at once. */
const BYTES_IN_FLIGHT = 64e6;
/** Seconds to wait at most for a server to finish the previous run's requests. */
const DRAIN_WAIT = 120;

const work = path.join(root, 'bench-work');
const results = path.join(root, 'bench-results');

const log = (message: string) => process.stderr.write(`${message}\n`);

/** The service's reviews.json as the oracle's input, cross-checked against the generated records. */
function datasetProblems(
  dataset: { reviews: (OracleReview & { service_ids: string[] })[] },
  content: ContentSet,
): string[] {
  const problems: string[] = [];
  const names = new Map(content.business.technicians.map((t) => [t.id, t.name]));
  const byId = new Map(dataset.reviews.map((review) => [review.id, review]));
  if (dataset.reviews.length !== content.reviews.length)
    problems.push(
      `${dataset.reviews.length} reviews published, ${content.reviews.length} generated`,
    );
  for (const generated of content.reviews) {
    const review = byId.get(generated.id);
    if (!review) {
      problems.push(`review ${generated.id} is missing`);
    } else if (
      review.rating !== generated.rating ||
      review.date !== generated.date ||
      review.title !== generated.title ||
      review.text !== generated.text ||
      review.technicians.join() !== generated.technicians.map((id) => names.get(id)).join() ||
      review.service_ids.join() !== generated.services.join()
    ) {
      problems.push(`review ${generated.id} differs from the generated record`);
    }
    if (problems.length > 5) break;
  }
  return problems;
}

interface Running {
  target: Target;
  base: string;
  proc: Started;
  startupMs: number;
  rssAtStartMB: number;
  rssAfterWarmupMB: number;
  /** Scenario indexes whose answer was right on this target: only those are timed. */
  timed: number[];
  /** Each scenario's request on this target (undefined: no equivalent). */
  requests: (Scenario['request'] | undefined)[];
}

async function startTarget(
  target: Target,
  base: string,
  readyPath: string,
  start: () => Started,
): Promise<Running> {
  const spawned = performance.now();
  const proc = start();
  await waitForHttp(`${base}${readyPath}`, proc);
  const startupMs = performance.now() - spawned;
  log(`${target}: first answer ${startupMs.toFixed(0)} ms after spawn`);
  return {
    target,
    base,
    proc,
    startupMs,
    rssAtStartMB: memoryOf(proc.pid).rssMB,
    rssAfterWarmupMB: 0,
    timed: [],
    requests: [],
  };
}

/** Sends each scenario's request once and checks the answer; the right ones are timed later. */
async function checkTarget(
  running: Running,
  scenarios: Scenario[],
  reports: ScenarioReport[],
  requestFor: (scenario: Scenario) => Scenario['request'] | undefined,
  check: (scenario: Scenario, index: number, answer: ReceivedAnswer) => string[],
): Promise<void> {
  const { target } = running;
  for (const [index, scenario] of scenarios.entries()) {
    const request = requestFor(scenario);
    running.requests[index] = request;
    if (!request) {
      reports[index]!.results[target] = { status: 'n/a', reason: 'no equivalent request' };
      continue;
    }
    reports[index]!.requests[target] = `${request.method} ${request.path}`;
    const problems = check(scenario, index, await send(running.base, request));
    if (problems.length > 0) {
      log(`  ✗ ${target} ${scenario.name}: ${problems.join('; ')}`);
      reports[index]!.results[target] = { status: 'wrong', problems };
    } else running.timed.push(index);
  }
}

function loadOptions(
  base: string,
  request: Scenario['request'],
  duration: number,
  connections: number,
): LoadOptions {
  return {
    url: `${base}${request.path}`,
    method: request.method,
    ...(request.headers ? { headers: request.headers } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
    connections,
    duration,
    timeout: TIMEOUT_S,
  };
}

const HOP_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

/** The service's answers, written for the ceiling server. */
function writeCeilingAnswers(
  dir: string,
  scenarios: Scenario[],
  references: ReceivedAnswer[],
): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const index: CeilingAnswer[] = scenarios.map((scenario, i) => {
    const answer = references[i]!;
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) headers[name] = value;
    });
    writeFileSync(path.join(dir, `${i}.body`), answer.body);
    return {
      method: scenario.request.method,
      url: scenario.request.path,
      status: answer.status,
      headers,
      file: `${i}.body`,
    };
  });
  writeFileSync(path.join(dir, 'index.json'), JSON.stringify(index));
}

function emptyReport(n: number): SizeReport {
  return {
    n,
    content: { dir: '', generated: false, seconds: 0 },
    build: undefined,
    processes: {},
    datasetBytes: 0,
    checks: {},
    notes: [],
    scenarios: [],
  };
}

async function benchSize(n: number, position: number, report: SizeReport): Promise<void> {
  log(`\n== N = ${n}`);
  const content = ensureContent({
    dir: path.join(work, `content-${n}`),
    n,
    seed: SEED,
    sourceContentDir: path.join(root, 'content'),
  });
  log(
    `content: ${content.generated ? 'generated' : 'reused'} ${n} reviews in ${path.relative(root, content.dir)} (${content.seconds.toFixed(1)} s)`,
  );
  const servicePort = PORT_BASE + position * 3;
  const ceilingPort = servicePort + 1;
  const jsonServerPort = servicePort + 2;
  const siteUrl = `http://127.0.0.1:${servicePort}`;
  const distDir = path.join(work, `dist-${n}`);
  report.content = {
    dir: path.relative(root, content.dir),
    generated: content.generated,
    seconds: content.seconds,
  };

  report.build = await ensureBuild({ content, distDir, siteUrl, reuse: REUSE_BUILD, log });

  const technician =
    content.business.technicians.find((t) => t.id === 'marcus-bell') ??
    content.business.technicians[0]!;
  const scenarios = buildScenarios(technician.name).filter(
    (scenario) =>
      SCENARIOS.length === 0 ||
      SCENARIOS.some((part) => scenario.name.toLowerCase().includes(part)),
  );
  const reports: ScenarioReport[] = scenarios.map((scenario) => ({
    name: scenario.name,
    kind: scenario.kind,
    connections: CONNECTIONS,
    bodyBytes: 0,
    requests: {},
    results: {},
  }));
  report.scenarios = reports;
  const expectedIds = [...content.reviews].sort(newestFirst).map((review) => review.id);

  const running: Running[] = [];
  try {
    // The service: start-up, the oracle's input (its reviews.json, cross-checked against the
    // generated records), an MCP session, and every answer checked.
    const dataDir = path.join(work, `data-${n}`);
    rmSync(dataDir, { recursive: true, force: true });
    const service = await startTarget('service', siteUrl, '/api/reviews/search?limit=1', () =>
      startProcess({
        command: process.execPath,
        args: [...SERVER_NODE_FLAGS, 'src/server.ts'],
        env: {
          HOST: '127.0.0.1',
          PORT: String(servicePort),
          SITE_URL: siteUrl,
          DIST_DIR: distDir,
          DATA_DIR: dataDir,
          MCP_SESSION_SECRET: SESSION_SECRET,
        },
        cpu: SERVER_CPU,
      }),
    );
    running.push(service);
    const datasetAnswer = await send(siteUrl, { method: 'GET', path: '/reviews.json' });
    report.datasetBytes = datasetAnswer.body.length;
    const dataset = JSON.parse(datasetAnswer.body.toString('utf8')) as {
      reviews: (OracleReview & { service_ids: string[] })[];
      business: { technicians: OracleTechnician[] };
    };
    const oracle: Oracle = { reviews: dataset.reviews, technicians: dataset.business.technicians };
    report.checks.service = datasetProblems(dataset, content);
    if (report.checks.service.length > 0)
      log(`  ✗ reviews.json: ${report.checks.service.join('; ')}`);
    const mcp = scenarios.find((scenario) => scenario.kind === 'mcp');
    if (mcp)
      mcp.request = { ...mcp.request, headers: await openMcpSession(siteUrl), body: mcpCallBody() };
    const serviceTotal = async (query: string) =>
      (
        (await (await fetch(`${siteUrl}/api/reviews/search?${query}&limit=1`)).json()) as {
          total: number;
        }
      ).total;
    const folding = {
      accentless: await serviceTotal('mentions_technician=tomas%20reyes'),
      alias: await serviceTotal('mentions_technician=tommy'),
    };

    const references: ReceivedAnswer[] = [];
    await checkTarget(
      service,
      scenarios,
      reports,
      (scenario) => scenario.request,
      (scenario, index, answer) => {
        references[index] = answer;
        reports[index]!.bodyBytes = answer.body.length;
        reports[index]!.connections = Math.max(
          1,
          Math.min(CONNECTIONS, Math.floor(BYTES_IN_FLIGHT / Math.max(1, answer.body.length))),
        );
        return checkService(scenario, answer, oracle, expectedIds);
      },
    );
    if (!ENABLED.has('service')) {
      running.splice(running.indexOf(service), 1);
      await stopProcess(service.proc);
      for (const entry of reports) delete entry.results.service;
    }

    // The ceiling: the service's exact answers from memory, on the same core.
    if (ENABLED.has('ceiling')) {
      const dir = path.join(work, `ceiling-${n}`);
      writeCeilingAnswers(dir, scenarios, references);
      const ceiling = await startTarget(
        'ceiling',
        `http://127.0.0.1:${ceilingPort}`,
        '/reviews.json',
        () =>
          startProcess({
            command: process.execPath,
            args: ['scripts/bench/ceiling-server.ts', dir, String(ceilingPort)],
            cpu: SERVER_CPU,
          }),
      );
      running.push(ceiling);
      await checkTarget(
        ceiling,
        scenarios,
        reports,
        (scenario) => scenario.request,
        (_scenario, index, answer) => checkCeiling(answer, references[index]!),
      );
    }

    // json-server 0.17 over the same reviews (newest first), with its nearest filters.
    if (ENABLED.has('json-server')) {
      const dir = path.join(work, `jsonserver-${n}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'db.json'), JSON.stringify({ reviews: dataset.reviews }));
      const jsonServer = await startTarget(
        'json-server',
        `http://127.0.0.1:${jsonServerPort}`,
        '/reviews?_limit=1',
        () =>
          startProcess({
            command: process.execPath,
            args: [
              path.join(root, 'node_modules/json-server/lib/cli/bin.js'),
              '--quiet',
              '--read-only',
              '--host',
              '127.0.0.1',
              '--port',
              String(jsonServerPort),
              'db.json',
            ],
            cwd: dir,
            cpu: SERVER_CPU,
          }),
      );
      running.push(jsonServer);
      report.notes.push(...(await jsonServerSemantics(jsonServer.base, oracle, folding)));
      await checkTarget(
        jsonServer,
        scenarios,
        reports,
        (scenario) =>
          scenario.jsonServer === undefined
            ? undefined
            : { method: 'GET', path: scenario.jsonServer },
        (scenario, _index, answer) => checkJsonServer(scenario, answer, oracle, expectedIds),
      );
    }

    // Warm-up of every target, then the timed runs, interleaved per scenario so that whatever
    // else the machine does at a given moment weighs on the three targets alike.
    if (WARMUP > 0)
      for (const target of running)
        for (const index of target.timed) {
          await runLoad(
            loadOptions(target.base, target.requests[index]!, WARMUP, reports[index]!.connections),
            LOAD_CPU,
          );
          await waitForIdleProcess(target.proc.pid, DRAIN_WAIT);
        }
    for (const target of running) target.rssAfterWarmupMB = memoryOf(target.proc.pid).rssMB;
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const [index, scenario] of scenarios.entries()) {
        for (const target of running) {
          if (!target.timed.includes(index)) continue;
          const drained = await waitForIdleProcess(target.proc.pid, DRAIN_WAIT);
          const quiet = await waitForQuiet(QUIET_WAIT);
          const cpuBefore = cpuSecondsOf(target.proc.pid);
          const coresBefore = coreTimes();
          const load = await runLoad(
            loadOptions(
              target.base,
              target.requests[index]!,
              DURATION,
              reports[index]!.connections,
            ),
            LOAD_CPU,
          );
          const cores = coreUse(coresBefore, coreTimes());
          const serverCpu = (cpuSecondsOf(target.proc.pid) - cpuBefore) / load.seconds;
          const previous = reports[index]!.results[target.target];
          const rounds = previous?.status === 'ok' ? previous.rounds : [];
          rounds.push(load.requestsPerSecond);
          const outcome: Outcome = {
            status: 'ok',
            load,
            serverCpu,
            serverUsPerRequest:
              load.requests > 0 ? (serverCpu * load.seconds * 1e6) / load.requests : 0,
            otherCpuOnServerCore: Math.max(0, cores.busy[SERVER_CPU]! - serverCpu),
            otherCpuOnLoadCore: Math.max(0, cores.busy[LOAD_CPU]! - load.loaderCpu),
            steal: cores.steal[SERVER_CPU]! + cores.steal[LOAD_CPU]!,
            loadAverage: loadavg()[0]!,
            waitedForQuiet: quiet.waited,
            waitedForDrain: drained,
            rounds,
          };
          // With several rounds the best one is kept: contention only ever slows a run down.
          if (previous?.status !== 'ok' || load.requestsPerSecond > previous.load.requestsPerSecond)
            reports[index]!.results[target.target] = outcome;
          const bad = load.errors + load.timeouts + load.non2xx;
          log(
            `  ${ROUNDS > 1 ? `r${round} ` : ''}${target.target.padEnd(11)} ${scenario.name.padEnd(36)} ${fmtInt(load.requestsPerSecond).padStart(8)} req/s  p50 ${load.p50} ms  p99 ${load.p99} ms  server CPU ${pct(serverCpu)}  loader CPU ${pct(load.loaderCpu)}  other on core ${SERVER_CPU} ${pct(outcome.otherCpuOnServerCore)}${bad > 0 ? `  errors ${load.errors} timeouts ${load.timeouts} non-2xx ${load.non2xx}` : ''}`,
          );
        }
      }
    }
    for (const target of running) {
      const end = memoryOf(target.proc.pid);
      report.processes[target.target] = {
        startupMs: target.startupMs,
        rssAtStartMB: target.rssAtStartMB,
        rssAfterWarmupMB: target.rssAfterWarmupMB,
        rssAfterLoadMB: end.rssMB,
        peakRssMB: end.hwmMB,
      };
    }
  } finally {
    for (const target of running) await stopProcess(target.proc);
  }

  for (const scenario of reports) {
    const rps = (target: Target) => {
      const outcome = scenario.results[target];
      return outcome?.status === 'ok' ? outcome.load.requestsPerSecond : undefined;
    };
    const service = rps('service');
    const ceiling = rps('ceiling');
    const jsonServer = rps('json-server');
    if (service !== undefined && ceiling) scenario.ratioToCeiling = service / ceiling;
    const serviceCost = scenario.results.service;
    const ceilingCost = scenario.results.ceiling;
    if (
      serviceCost?.status === 'ok' &&
      ceilingCost?.status === 'ok' &&
      serviceCost.serverUsPerRequest > 0
    )
      scenario.cpuCostRatioToCeiling =
        ceilingCost.serverUsPerRequest / serviceCost.serverUsPerRequest;
    if (service !== undefined && jsonServer) scenario.speedupVsJsonServer = service / jsonServer;
  }
}

/** Where json-server's nearest filters differ from the service's, measured on this data. */
async function jsonServerSemantics(
  base: string,
  oracle: Oracle,
  service: { accentless: number; alias: number },
): Promise<string[]> {
  const totalOf = async (url: string) => Number((await fetch(url)).headers.get('x-total-count'));
  const notes = [
    'json-server returns its db order: reviews.json is newest first, so no _sort is needed (a _sort would make it slower).',
    'query=leak → text_like=leak (a case-insensitive RegExp on the text only): the generator puts "leak" in a title only when the text has it, so the sets match here; json-server cannot OR title and text.',
    'mentions_technician=<name> → technicians_like=<name>: a RegExp over the joined canonical names; aliases ("Marc") and ids ("marcus-bell") are not resolved and accents are not folded.',
    'json-server has no MCP endpoint: the MCP scenario compares with the ceiling only.',
  ];
  const qTotal = await totalOf(`${base}/reviews?q=leak&_limit=1`);
  const leakTotal = oracle.reviews.filter(
    (r) => /leak/i.test(r.text) || (r.title !== null && /leak/i.test(r.title)),
  ).length;
  notes.push(
    qTotal === leakTotal
      ? `json-server's full-text q=leak (every field, nested) matches the same ${qTotal} reviews here, since only leak reviews carry the leak-repair service id; text_like is used as the cheaper equivalent.`
      : `json-server's full-text q=leak matches ${qTotal} reviews against ${leakTotal} for query=leak: q searches every field (service ids such as leak-repair, owner replies, URLs), so it is not used.`,
  );
  const accentless = await totalOf(`${base}/reviews?technicians_like=tomas%20reyes&_limit=1`);
  const alias = await totalOf(`${base}/reviews?technicians_like=tommy&_limit=1`);
  notes.push(
    `Accents and aliases: technicians_like=tomas reyes matches ${accentless} reviews and technicians_like=tommy ${alias} on json-server; the service's mentions_technician finds ${service.accentless} and ${service.alias}.`,
  );
  return notes;
}

// ---------------------------------------------------------------------------------------------
// Output

async function main(): Promise<void> {
  mkdirSync(work, { recursive: true });
  mkdirSync(results, { recursive: true });
  for (let i = 0; i < SIZES.length * 3; i += 1) {
    const port = PORT_BASE + i;
    const probe = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (probe) throw new Error(`port ${port} is in use: set BENCH_PORT to a free range`);
  }
  const started = new Date();
  const code = codeVersion();
  log(
    `bench: sizes ${SIZES.join(', ')}; ${ROUNDS} × ${DURATION} s per scenario and target after ${WARMUP} s warm-up; ${CONNECTIONS} connections; ` +
      (HAS_TASKSET
        ? `servers on core ${SERVER_CPU}, load on core ${LOAD_CPU}`
        : 'taskset missing: nothing pinned'),
  );
  const sizes: SizeReport[] = [];
  for (const [position, n] of SIZES.entries()) {
    const report = emptyReport(n);
    sizes.push(report);
    try {
      await benchSize(n, position, report);
    } catch (error) {
      // One size failing (a build out of memory, say) still leaves the others' figures.
      killAll();
      report.error = error instanceof Error ? error.message : String(error);
      log(`N = ${n} stopped: ${report.error}`);
    }
  }

  const growthEntries = growth(sizes);
  const targets = evaluateTargets(sizes);
  const output = [
    `# Benchmark ${started.toISOString()} · Node ${process.version} · ${cpus().length} cores (${cpus()[0]?.model ?? '?'})`,
    ...sizes.map(printSize),
    printGrowth(growthEntries),
    printTargets(targets),
    ...sizes.flatMap((size) =>
      size.notes.length > 0
        ? [`\nNotes (N = ${fmtInt(size.n)}):`, ...size.notes.map((note) => `- ${note}`)]
        : [],
    ),
  ].join('\n');
  console.log(output);

  const wrong = sizes.flatMap((size) => [
    ...(size.error ? [size.error] : []),
    ...Object.values(size.checks).flat(),
    ...size.scenarios.flatMap((scenario) =>
      Object.values(scenario.results).flatMap((outcome) =>
        outcome?.status === 'wrong' ? outcome.problems : [],
      ),
    ),
  ]);
  const report = {
    schema: 'roofing-reviews-bench/1',
    started: started.toISOString(),
    finished: new Date().toISOString(),
    code,
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGB: totalmem() / 2 ** 30,
      pinned: HAS_TASKSET,
    },
    config: {
      sizes: SIZES,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      quietWaitSeconds: QUIET_WAIT,
      warmupSeconds: WARMUP,
      connections: CONNECTIONS,
      seed: SEED,
      serverCpu: SERVER_CPU,
      loadCpu: LOAD_CPU,
      targets: [...ENABLED],
    },
    sizes,
    growth: growthEntries,
    targets,
    correct: wrong.length === 0,
  };
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const file = path.join(results, `report-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(results, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`\nreport: ${path.relative(root, file)} and bench-results/latest.json`);
  if (wrong.length > 0) {
    log(`${wrong.length} wrong answer(s) or failure(s): see above`);
    process.exitCode = 1;
  }
}

process.once('SIGINT', () => {
  killAll();
  process.exit(130);
});
main().catch((error: unknown) => {
  killAll();
  console.error(error);
  process.exit(1);
});
