// One load run with autocannon, in its own process so the runner can pin it to the other core
// (`taskset -c 1 node scripts/bench/load.ts '<json options>'`). Prints one JSON line: the figures,
// the status codes and response sizes seen, and how busy this process was (a load generator at
// 100% of its core means the figure is the generator's limit, not the server's).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  timeout: number;
  /**
   * A JSON file listing request paths: sent round-robin from one counter shared by every
   * connection, so with more paths than any cache holds, no answer is asked for twice in a row.
   */
  pathsFile?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Response sizes seen (status line, headers and body), for a cheap in-run consistency check. */
  bytesMin: number;
  bytesMax: number;
  statuses: Record<string, number>;
  /** CPU time of this process over wall time: near 1 means the generator was the bottleneck. */
  loaderCpu: number;
  seconds: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const statuses: Record<string, number> = {};
let bytesMin = Number.POSITIVE_INFINITY;
let bytesMax = 0;
const paths = options.pathsFile
  ? (JSON.parse(readFileSync(options.pathsFile, 'utf8')) as string[])
  : undefined;
let sent = 0;
const cpuStart = process.cpuUsage();
const started = performance.now();

const instance = autocannon(
  {
    url: options.url,
    method: options.method,
    connections: options.connections,
    duration: options.duration,
    timeout: options.timeout,
    pipelining: 1,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(paths
      ? {
          requests: [
            {
              setupRequest: (request: { path: string }) => {
                request.path = paths[sent % paths.length]!;
                sent += 1;
                return request;
              },
            },
          ],
        }
      : {}),
  },
  (error, result) => {
    if (error) {
      console.error(error);
      process.exit(1);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const requests = result['2xx'] + result.non2xx;
    const out: LoadResult = {
      requestsPerSecond: requests / result.duration,
      requests,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      bytesMin: Number.isFinite(bytesMin) ? bytesMin : 0,
      bytesMax,
      statuses,
      loaderCpu: (cpu.user + cpu.system) / 1e6 / seconds,
      seconds: result.duration,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  },
);
instance.on('response', (_client: unknown, statusCode: number, resBytes: number) => {
  statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  if (resBytes < bytesMin) bytesMin = resBytes;
  if (resBytes > bytesMax) bytesMax = resBytes;
});
