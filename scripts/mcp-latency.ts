// `npm run bench:mcp`: latency of MCP `search_reviews` over HTTP from the SDK client, against the
// built server in its own process (run `npm run build` first). 20 warm-up calls, then N timed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SERVER_NODE_FLAGS } from './bench/proc.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const calls = Number(process.argv[2] ?? 100);
const args = { query: 'leak', min_rating: 1, limit: 20 };

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'src/server.ts')], {
  env: { ...process.env, PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  server.stdout.on('data', (chunk: Buffer) => {
    const match = /on (http:\/\/[^\s]+)/.exec(chunk.toString());
    if (match) resolve(match[1]!);
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

try {
  const client = new Client({ name: 'mcp-latency', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  for (let i = 0; i < 20; i += 1)
    await client.callTool({ name: 'search_reviews', arguments: args });
  const samples: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const started = performance.now();
    await client.callTool({ name: 'search_reviews', arguments: args });
    samples.push(performance.now() - started);
  }
  await client.close();
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)]!;
  console.log(
    JSON.stringify({
      tool: 'search_reviews',
      arguments: args,
      calls,
      median_ms: +at(0.5).toFixed(2),
      p99_ms: +at(0.99).toFixed(2),
      max_ms: +at(1).toFixed(2),
    }),
  );
} finally {
  server.kill('SIGTERM');
}
