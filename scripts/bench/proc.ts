// Process helpers for the benchmark: pinned spawns, waiting for the first HTTP answer, memory from
// /proc, timed builds with their peak memory, and load runs in a pinned child.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadOptions, LoadResult } from './load.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The Node flags `npm start` and `npm run serve` give the server (package.json): semi-spaces of
 * 16 MB instead of V8's default keep the young generation, and so resident memory, about 80 MB
 * smaller at 100k reviews for a few per cent of throughput. Benchmarks start the server with them
 * too, so they measure what `npm start` runs.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'];
export const HAS_TASKSET = existsSync('/usr/bin/taskset');
const HAS_TIME = existsSync('/usr/bin/time');

const running = new Set<ChildProcess>();

/** Kills whatever the benchmark started and is still running (on error or Ctrl-C). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** `command args` pinned to `cpu` with taskset (taskset execs, so the pid is the command's). */
function pinned(cpu: number | undefined, command: string, args: string[]): [string, string[]] {
  if (cpu === undefined || !HAS_TASKSET) return [command, args];
  return ['/usr/bin/taskset', ['-c', String(cpu), command, ...args]];
}

export interface Started {
  child: ChildProcess;
  pid: number;
  /** The last 64 KiB of stdout and stderr, for error messages. */
  output(): string;
  exited: Promise<number | null>;
}

export function startProcess(options: {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  cpu?: number;
}): Started {
  const [command, args] = pinned(options.cpu, options.command, options.args);
  const child = spawn(command, args, {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-65536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  if (child.pid === undefined) throw new Error(`cannot start ${command}`);
  return { child, pid: child.pid, output: () => log, exited };
}

export async function stopProcess(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  started.child.kill('SIGTERM');
  const timer = setTimeout(() => started.child.kill('SIGKILL'), 5000);
  await started.exited;
  clearTimeout(timer);
}

/** Milliseconds from now until `url` first answers 2xx (polling every 5 ms), or throws. */
export async function waitForHttp(
  url: string,
  started: Started,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let exited = false;
  void started.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`process exited before answering ${url}:\n${started.output()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline)
      throw new Error(`no answer from ${url} in ${timeoutMs} ms:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** VmRSS and VmHWM of a process, in MiB. */
export function memoryOf(pid: number): { rssMB: number; hwmMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
}

/** Sum of VmRSS over `pid` and all its descendants (MiB), and the descendants' names. */
function processTree(pid: number): { rssMB: number; names: string[] } {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      const list = children.get(ppid);
      if (list) list.push(Number(entry));
      else children.set(ppid, [Number(entry)]);
    } catch {
      // exited while we looked
    }
  }
  let rssMB = 0;
  const found: string[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop()!;
    try {
      rssMB += memoryOf(current).rssMB;
    } catch {
      // exited
    }
    if (current !== pid) found.push(names.get(current) ?? String(current));
    stack.push(...(children.get(current) ?? []));
  }
  return { rssMB, names: found };
}

export interface BuildFigures {
  seconds: number;
  /** Largest max RSS of the build's processes (getrusage via /usr/bin/time -v), MiB. */
  peakRssMB: number;
  /** Largest sampled sum of RSS over the build's process tree (every 100 ms), MiB. */
  treePeakMB: number;
  processes: string;
  exitCode: number | null;
  log: string;
}

/** Runs `node scripts/build.ts` with `env`, timing it and recording its peak memory. */
export async function timedBuild(env: NodeJS.ProcessEnv): Promise<BuildFigures> {
  const node = process.execPath;
  const started = performance.now();
  const proc = startProcess({
    command: HAS_TIME ? '/usr/bin/time' : node,
    args: HAS_TIME ? ['-v', node, 'scripts/build.ts'] : ['scripts/build.ts'],
    env,
  });
  let treePeakMB = 0;
  let hwmMB = 0;
  const descendants = new Set<string>();
  const sample = () => {
    const tree = processTree(proc.pid);
    treePeakMB = Math.max(treePeakMB, tree.rssMB);
    for (const name of tree.names) descendants.add(name);
    try {
      hwmMB = Math.max(hwmMB, memoryOf(proc.pid).hwmMB);
    } catch {
      // exited
    }
  };
  const timer = setInterval(sample, 100);
  const code = await proc.exited;
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  const log = proc.output();
  const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(log);
  return {
    seconds,
    peakRssMB: maxRss ? Number(maxRss[1]) / 1024 : hwmMB,
    treePeakMB,
    processes: [...descendants].sort().join(', '),
    exitCode: code,
    log: log
      .split('\n')
      .filter((line) => !/^\s+\S.*: /.test(line) && !line.startsWith('\tCommand being timed'))
      .join('\n')
      .trim(),
  };
}

/** One autocannon run in a child pinned to `cpu`. */
export async function runLoad(options: LoadOptions, cpu: number): Promise<LoadResult> {
  const proc = startProcess({
    command: process.execPath,
    args: ['scripts/bench/load.ts', JSON.stringify(options)],
    cpu,
  });
  let stdout = '';
  proc.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await proc.exited;
  const line = stdout.trim().split('\n').pop();
  if (code !== 0 || !line) throw new Error(`load run failed (exit ${code}):\n${proc.output()}`);
  return JSON.parse(line) as LoadResult;
}

/** User + system CPU seconds a process has used so far (from /proc/<pid>/stat, 100 ticks/s). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface CoreTimes {
  /** Jiffies (1/100 s) per core: busy (everything but idle and iowait) and stolen by the host. */
  busy: number[];
  steal: number[];
  at: number;
}

export function coreTimes(): CoreTimes {
  const busy: number[] = [];
  const steal: number[] = [];
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const match = /^cpu(\d+) (.*)$/.exec(line);
    if (!match) continue;
    const v = match[2]!.trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    busy[Number(match[1])] = v[0]! + v[1]! + v[2]! + v[5]! + v[6]!;
    steal[Number(match[1])] = v[7]!;
  }
  return { busy, steal, at: performance.now() };
}

/** Busy and stolen share of each core between two readings. */
export function coreUse(before: CoreTimes, after: CoreTimes): { busy: number[]; steal: number[] } {
  const seconds = (after.at - before.at) / 1000;
  return {
    busy: after.busy.map((value, core) => (value - before.busy[core]!) / 100 / seconds),
    steal: after.steal.map((value, core) => (value - before.steal[core]!) / 100 / seconds),
  };
}

/**
 * Waits (at most `maxSeconds`) until both cores are nearly idle over half a second: the machine may
 * be shared, and a run that starts in the middle of someone's test suite measures that suite.
 * Returns the seconds waited and the busy share of the last window.
 */
export async function waitForQuiet(
  maxSeconds: number,
  threshold = 0.15,
): Promise<{ waited: number; busy: number }> {
  const started = performance.now();
  for (;;) {
    const before = coreTimes();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const use = coreUse(before, coreTimes());
    const busy = Math.max(...use.busy);
    const waited = (performance.now() - started) / 1000;
    if (busy <= threshold || waited >= maxSeconds) return { waited, busy };
  }
}

/**
 * Waits (at most `maxSeconds`) until process `pid` is idle over a quarter second: a server still
 * working through requests of the previous run (a 100 MB answer, say) would slow the next one.
 */
export async function waitForIdleProcess(pid: number, maxSeconds: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = cpuSecondsOf(pid);
    const at = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const share = (cpuSecondsOf(pid) - before) / ((performance.now() - at) / 1000);
    const waited = (performance.now() - started) / 1000;
    if (share < 0.05 || waited >= maxSeconds) return waited;
  }
}
