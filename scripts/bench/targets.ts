// The main benchmark's targets: each measured figure against the goal it is held to, as a list of
// checks printed at the end of a run (timings are reported, never asserted).
import {
  LOADER_BOUND,
  fmt,
  fmtInt,
  ratio,
  table,
  type ScenarioReport,
  type SizeReport,
} from './report.ts';
import type { Target } from './scenarios.ts';

export interface TargetCheck {
  n: number;
  target: string;
  value: string;
  pass: boolean;
}

/** When the ceiling's run was the load generator's limit: say so, with the CPU-cost ratio. */
function loaderBound(scenario: ScenarioReport): string {
  const ceiling = scenario.results.ceiling;
  const service = scenario.results.service;
  if (ceiling?.status !== 'ok' || ceiling.load.loaderCpu < LOADER_BOUND) return '';
  const cost =
    service?.status === 'ok' && service.serverUsPerRequest > 0
      ? `; server CPU per request ${ratio(ceiling.serverUsPerRequest / service.serverUsPerRequest)} the ceiling's efficiency`
      : '';
  return ` (ceiling loader-bound${cost})`;
}

/** The performance targets, evaluated on this run's figures (reported only, never asserted). */
export function evaluateTargets(sizes: SizeReport[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const ok = (scenario: ScenarioReport, target: Target) => {
    const outcome = scenario.results[target];
    return outcome?.status === 'ok' ? outcome.load : undefined;
  };
  for (const size of sizes) {
    const n = size.n;
    const searches = size.scenarios.filter((s) => s.kind === 'search');
    if (n === 10_000) {
      for (const scenario of searches) {
        const load = ok(scenario, 'service');
        checks.push({
          n,
          target: `${scenario.name}: ≥ 60% of the ceiling's req/s, p99 ≤ 5 ms`,
          value: `${ratio(scenario.ratioToCeiling)} of the ceiling${loaderBound(scenario)}, p99 ${fmt(load?.p99, 0)} ms`,
          pass: (scenario.ratioToCeiling ?? 0) >= 0.6 && load !== undefined && load.p99 <= 5,
        });
      }
    }
    if (n === 100_000) {
      for (const scenario of searches) {
        const load = ok(scenario, 'service');
        checks.push({
          n,
          target: `${scenario.name}: ≥ 15,000 req/s, p99 ≤ 10 ms`,
          value: `${fmtInt(load?.requestsPerSecond ?? 0)} req/s, p99 ${fmt(load?.p99, 0)} ms`,
          pass: load !== undefined && load.requestsPerSecond >= 15_000 && load.p99 <= 10,
        });
      }
      const leak = searches.find((s) => s.name.includes('leak'));
      const rating = searches.find((s) => s.name.includes('rating=5'));
      const leakRps = leak && ok(leak, 'service')?.requestsPerSecond;
      const ratingRps = rating && ok(rating, 'service')?.requestsPerSecond;
      if (leakRps !== undefined && ratingRps !== undefined)
        checks.push({
          n,
          target: 'query=leak no slower than 3× rating=5',
          value: `rating=5 is ${(ratingRps / leakRps).toFixed(2)}× query=leak`,
          pass: leakRps * 3 >= ratingRps,
        });
      const svc = size.processes.service;
      if (svc)
        checks.push({
          n,
          target: 'server starts in ≤ 3 s with ≤ 600 MB resident',
          value: `${fmt(svc.startupMs, 0)} ms, ${fmt(svc.rssAfterWarmupMB, 0)} MB after warm-up (peak ${fmt(svc.peakRssMB, 0)} MB)`,
          pass: svc.startupMs <= 3000 && svc.rssAfterWarmupMB <= 600,
        });
    }
    for (const scenario of size.scenarios.filter((s) => s.kind === 'dataset'))
      checks.push({
        n,
        target: `${scenario.name}: ≥ 80% of the ceiling`,
        value: `${ratio(scenario.ratioToCeiling)}${loaderBound(scenario)}`,
        pass: (scenario.ratioToCeiling ?? 0) >= 0.8,
      });
    const limit = n === 10_000 ? 60 : n === 100_000 ? 480 : undefined;
    if (size.build && limit !== undefined)
      checks.push({
        n,
        target: `build ≤ ${limit} s`,
        value: `${fmt(size.build.seconds)} s`,
        pass: size.build.seconds <= limit,
      });
    if (size.build)
      checks.push({
        n,
        target: 'build peak memory ≤ 3 GB',
        value: `${fmt(size.build.peakRssMB, 0)} MB`,
        pass: size.build.peakRssMB <= 3072,
      });
    for (const scenario of size.scenarios) {
      if (scenario.results['json-server']?.status !== 'ok') continue;
      checks.push({
        n,
        target: `${scenario.name}: ahead of json-server`,
        value: ratio(scenario.speedupVsJsonServer),
        pass: (scenario.speedupVsJsonServer ?? 0) > 1,
      });
    }
  }
  return checks;
}

export function printTargets(checks: TargetCheck[]): string {
  const rows = [['N', 'target', 'measured', '']];
  for (const check of checks)
    rows.push([fmtInt(check.n), check.target, check.value, check.pass ? 'met' : 'MISSED']);
  return `\n## Issue 6 targets (reported, not asserted)\n${table(rows, new Set())}`;
}

// ---------------------------------------------------------------------------------------------
