// The benchmark's settings, read from BENCH_* environment variables and validated in one place: a
// typo or a bad value stops the run at once with the variable's name, instead of a run that
// silently measures something else.
import { z } from 'zod';
import { DEFAULT_SEED } from './generate.ts';

const positiveInt = z.coerce.number().int().positive();

const sizes = z.string().transform((value, context) => {
  const parts = value.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.some((part, k) => part === '' || !Number.isInteger(numbers[k]) || numbers[k]! < 1)) {
    context.addIssue({ code: 'custom', message: `expected sizes like 1000,10000; got "${value}"` });
    return z.NEVER;
  }
  return numbers;
});

const list = z.string().transform((value) =>
  value
    .toLowerCase()
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
);

const flag = z
  .enum(['', '0', '1', 'true', 'false', 'yes', 'no'], { error: 'expected 1 or 0' })
  .transform((value) => ['1', 'true', 'yes'].includes(value));

export const BenchConfigSchema = z.object({
  /** Review counts N the main benchmark runs at. */
  BENCH_SIZES: sizes.default([1000, 10_000, 100_000]),
  /** Seconds per timed run, and of warm-up before it. */
  BENCH_DURATION: z.coerce.number().positive().default(10),
  BENCH_WARMUP: z.coerce.number().nonnegative().default(2),
  /** Timed runs per scenario and target; the best is kept. */
  BENCH_ROUNDS: positiveInt.default(1),
  /** Seconds to wait at most for idle cores before each run. */
  BENCH_QUIET_WAIT: z.coerce.number().nonnegative().default(20),
  BENCH_CONNECTIONS: positiveInt.default(50),
  BENCH_SEED: z.string().min(1).default(DEFAULT_SEED),
  /** First port; each N of each benchmark takes a few from there. */
  BENCH_PORT: positiveInt.max(65_000).default(47_100),
  BENCH_REUSE_BUILD: flag.default(false),
  /** Only the scenarios whose name contains one of these (lower case). */
  BENCH_SCENARIOS: list.default([]),
  BENCH_TARGETS: list.default(['service', 'ceiling', 'json-server']),
  /** The distinct-searches benchmark: its sizes, URLs, connections, cached set and checks. */
  BENCH_DISTINCT_SIZES: sizes.default([10_000, 100_000]),
  BENCH_DISTINCT_URLS: positiveInt.default(20_000),
  BENCH_DISTINCT_CACHED: positiveInt.default(500),
  BENCH_DISTINCT_CONNECTIONS: positiveInt.default(32),
  BENCH_DISTINCT_CHECKS: positiveInt.default(300),
});

export type BenchConfig = z.output<typeof BenchConfigSchema>;

export function parseBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const given = Object.fromEntries(
    Object.keys(BenchConfigSchema.shape).flatMap((name) =>
      env[name] === undefined || env[name] === '' ? [] : [[name, env[name]]],
    ),
  );
  const result = BenchConfigSchema.safeParse(given);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`bad benchmark settings:\n  ${problems.join('\n  ')}`);
  }
  const unknown = Object.keys(env).filter(
    (name) => name.startsWith('BENCH_') && !(name in BenchConfigSchema.shape),
  );
  if (unknown.length > 0)
    throw new Error(
      `unknown benchmark settings: ${unknown.join(', ')} (known: ${Object.keys(BenchConfigSchema.shape).join(', ')})`,
    );
  return result.data;
}
