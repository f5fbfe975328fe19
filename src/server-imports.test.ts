// The server answers requests from what the build wrote; it never computes insights. Loading the
// aspect model (a 26 MB JSON) or the NLP pipeline would cost every server process about 100 MB and
// 150 ms of start-up for nothing, so the modules it imports, followed statically, must not reach
// them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const src = path.dirname(fileURLToPath(import.meta.url));

/** Relative modules `file` imports for their values (type-only imports and exports are erased). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const pattern = /^(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?'(\.[^']+)'/gms;
  for (const match of text.matchAll(pattern))
    found.push(path.resolve(path.dirname(file), match[1]!));
  return found;
}

/** Every module reachable from `entry`, each with the module that first imported it. */
function reachable(entry: string): Map<string, string | null> {
  const parents = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (!file.endsWith('.ts') || !existsSync(file)) continue;
    for (const next of valueImports(file))
      if (!parents.has(next)) {
        parents.set(next, file);
        queue.push(next);
      }
  }
  return parents;
}

function chain(parents: Map<string, string | null>, file: string): string {
  const links: string[] = [];
  for (let at: string | null | undefined = file; at; at = parents.get(at))
    links.push(path.relative(src, at));
  return links.join(' ← ');
}

test('the server never loads the aspect model or the NLP pipeline', () => {
  const parents = reachable(path.join(src, 'server.ts'));
  expect(parents.size).toBeGreaterThan(20);
  expect(parents.has(path.join(src, 'http/app.ts'))).toBe(true);
  const heavy = ['core/insights/model/default-model.ts', 'core/insights/sentences.ts'].map((f) =>
    path.join(src, f),
  );
  expect(heavy.filter((f) => parents.has(f)).map((f) => chain(parents, f))).toEqual([]);
});
