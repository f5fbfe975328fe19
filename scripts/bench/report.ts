// The main benchmark's report: its shape (written to bench-results/*.json) and the tables printed
// from it, per N and across N.
import type { BuildReport } from './site-build.ts';
import type { LoadResult } from './load.ts';
import { TARGETS, type Scenario, type Target } from './scenarios.ts';

/** Loader CPU share from which a figure is the load generator's limit rather than the server's. */
export const LOADER_BOUND = 0.9;

export type Outcome =
  | {
      status: 'ok';
      load: LoadResult;
      /** CPU time of the server process over the run's wall time (1 = its core was saturated). */
      serverCpu: number;
      /** Server CPU time per answered request, in µs: comparable even when the loader is the limit. */
      serverUsPerRequest: number;
      /** Busy share of the server's core not spent by the server: other work, interrupts. */
      otherCpuOnServerCore: number;
      /** Busy share of the load core not spent by autocannon. */
      otherCpuOnLoadCore: number;
      /** Share of the two cores' time stolen by the hypervisor. */
      steal: number;
      /** 1-minute load average at the end of the run (other work on the machine shows here). */
      loadAverage: number;
      /** Seconds spent waiting for an idle machine before the run (BENCH_QUIET_WAIT). */
      waitedForQuiet: number;
      /** Seconds the server needed to finish the previous run's requests before this run. */
      waitedForDrain: number;
      /** req/s of every round (BENCH_ROUNDS); the figures are those of the best round. */
      rounds: number[];
    }
  | { status: 'wrong'; problems: string[] }
  | { status: 'n/a'; reason: string };

export interface ScenarioReport {
  name: string;
  kind: Scenario['kind'];
  requests: Partial<Record<Target, string>>;
  results: Partial<Record<Target, Outcome>>;
  /** Concurrent connections: BENCH_CONNECTIONS, fewer for answers so large that it would put more
   * than 64 MB in flight (autocannon would then finish no request within the run). */
  connections: number;
  /** Size of the service's answer body. */
  bodyBytes: number;
  /** service req/s ÷ ceiling req/s */
  ratioToCeiling?: number;
  /** ceiling's server CPU per request ÷ the service's (1 = as cheap as ready bytes) */
  cpuCostRatioToCeiling?: number;
  /** service req/s ÷ json-server req/s */
  speedupVsJsonServer?: number;
}

export interface ProcessFigures {
  startupMs: number;
  rssAtStartMB: number;
  rssAfterWarmupMB: number;
  rssAfterLoadMB: number;
  peakRssMB: number;
}

export interface SizeReport {
  n: number;
  content: { dir: string; generated: boolean; seconds: number };
  build: BuildReport | undefined;
  processes: Partial<Record<Target, ProcessFigures>>;
  datasetBytes: number;
  checks: Partial<Record<Target, string[]>>;
  notes: string[];
  scenarios: ScenarioReport[];
  /** Why this size stopped early (a failed build, a server that did not start…). */
  error?: string;
}

export const pct = (value: number) => `${Math.round(value * 100)}%`;
export const fmtInt = (value: number) => Math.round(value).toLocaleString('en-US');
export const fmt = (value: number | undefined, digits = 1) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
export const ratio = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}×`;

export function table(rows: string[][], right: Set<number>): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, col) =>
          right.has(col) ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The table of one N; `connections` is the run's setting (scenarios run with fewer say so). */
export function printSize(size: SizeReport, connections: number): string {
  const lines: string[] = [];
  const b = size.build;
  const svc = size.processes.service;
  lines.push(
    `\n## N = ${fmtInt(size.n)}  (reviews.json ${(size.datasetBytes / 1e6).toFixed(1)} MB)`,
    `build ${fmt(b?.seconds)} s${b?.reused ? ' (reused)' : ''}, peak RSS ${fmt(b?.peakRssMB, 0)} MB (process tree ${fmt(b?.treePeakMB, 0)} MB)` +
      ` · service start-up ${fmt(svc?.startupMs, 0)} ms, RSS ${fmt(svc?.rssAtStartMB, 0)} MB at start, ${fmt(svc?.rssAfterWarmupMB, 0)} MB after warm-up, peak ${fmt(svc?.peakRssMB, 0)} MB`,
  );
  const others = (['ceiling', 'json-server'] as const)
    .filter((t) => size.processes[t])
    .map(
      (t) =>
        `${t} start-up ${fmt(size.processes[t]!.startupMs, 0)} ms, RSS ${fmt(size.processes[t]!.rssAfterWarmupMB, 0)} MB after warm-up`,
    );
  if (others.length > 0) lines.push(others.join(' · '));
  if (size.error) lines.push(`STOPPED: ${size.error.split('\n')[0]}`);
  const rows: string[][] = [
    [
      'scenario',
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      '÷ ceiling',
      '× json-server',
      'server CPU',
      'server µs/req',
      'loader CPU',
      'other core 0',
      'errors',
    ],
  ];
  for (const scenario of size.scenarios) {
    const ceiling = scenario.results.ceiling;
    const jsonServer = scenario.results['json-server'];
    let name =
      scenario.connections === connections
        ? scenario.name
        : `${scenario.name} (${scenario.connections} conn.)`;
    for (const target of TARGETS) {
      const outcome = scenario.results[target];
      if (!outcome) continue;
      const first = name;
      name = '';
      if (outcome.status !== 'ok') {
        rows.push([
          first,
          target,
          outcome.status === 'wrong' ? 'WRONG' : 'n/a',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          outcome.status === 'wrong' ? outcome.problems[0]!.slice(0, 40) : '',
        ]);
        continue;
      }
      const load = outcome.load;
      const toCeiling =
        ceiling?.status === 'ok'
          ? load.requestsPerSecond / ceiling.load.requestsPerSecond
          : undefined;
      const toJson =
        target === 'service' && jsonServer?.status === 'ok'
          ? load.requestsPerSecond / jsonServer.load.requestsPerSecond
          : undefined;
      const bad = load.errors + load.timeouts + load.non2xx;
      rows.push([
        first,
        target,
        fmtInt(load.requestsPerSecond),
        fmt(load.p50, 0),
        fmt(load.p99, 0),
        target === 'ceiling' ? '' : ratio(toCeiling),
        target === 'service' ? ratio(toJson) : '',
        pct(outcome.serverCpu),
        fmtInt(outcome.serverUsPerRequest),
        `${pct(load.loaderCpu)}${load.loaderCpu >= LOADER_BOUND ? '!' : ''}`,
        pct(outcome.otherCpuOnServerCore),
        bad > 0 ? String(bad) : '',
      ]);
    }
  }
  lines.push(table(rows, new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11])));
  lines.push(
    `(! = autocannon used ≥ ${pct(LOADER_BOUND)} of its core: that req/s is the load generator's limit, so a ceiling marked ! is understated and the ratio to it overstated; compare server µs/req instead. Latencies have 1 ms resolution.)`,
  );
  return lines.join('\n');
}

export interface Growth {
  from: number;
  to: number;
  buildSeconds?: number;
  buildPeakMB?: number;
  startupMs?: number;
  rssMB?: number;
  serviceRps: Record<string, number | undefined>;
}

export function growth(sizes: SizeReport[]): Growth[] {
  const out: Growth[] = [];
  for (let i = 1; i < sizes.length; i += 1) {
    const a = sizes[i - 1]!;
    const b = sizes[i]!;
    const div = (x: number | undefined, y: number | undefined) =>
      x !== undefined && y !== undefined && y > 0 ? x / y : undefined;
    const rps = (size: SizeReport, index: number) => {
      const outcome = size.scenarios[index]?.results.service;
      return outcome?.status === 'ok' ? outcome.load.requestsPerSecond : undefined;
    };
    const entry: Growth = {
      from: a.n,
      to: b.n,
      serviceRps: Object.fromEntries(
        b.scenarios.map((scenario, index) => [scenario.name, div(rps(b, index), rps(a, index))]),
      ),
    };
    const set = <K extends 'buildSeconds' | 'buildPeakMB' | 'startupMs' | 'rssMB'>(
      key: K,
      value: number | undefined,
    ) => {
      if (value !== undefined) entry[key] = value;
    };
    set('buildSeconds', div(b.build?.seconds, a.build?.seconds));
    set('buildPeakMB', div(b.build?.peakRssMB, a.build?.peakRssMB));
    set('startupMs', div(b.processes.service?.startupMs, a.processes.service?.startupMs));
    set('rssMB', div(b.processes.service?.rssAfterWarmupMB, a.processes.service?.rssAfterWarmupMB));
    out.push(entry);
  }
  return out;
}

export function printGrowth(entries: Growth[]): string {
  if (entries.length === 0) return '';
  const rows: string[][] = [
    [
      'growth',
      'build time',
      'build peak',
      'start-up',
      'RSS',
      ...Object.keys(entries[0]!.serviceRps).map((name) => `req/s ${name}`),
    ],
  ];
  for (const entry of entries) {
    rows.push([
      `${fmtInt(entry.from)} → ${fmtInt(entry.to)} (×${entry.to / entry.from})`,
      ratio(entry.buildSeconds),
      ratio(entry.buildPeakMB),
      ratio(entry.startupMs),
      ratio(entry.rssMB),
      ...Object.values(entry.serviceRps).map(ratio),
    ]);
  }
  return `\n## Growth with N (ratio of the larger size's figure to the smaller's)\n${table(rows, new Set(rows[0]!.map((_, i) => i).slice(1)))}`;
}
