import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Lexicon } from './lexicon.ts';
import type { Review } from '../review.ts';
import { analyzeReviews } from './analysis.ts';
import { defaultAspectModel } from './model/default-model.ts';
import { analyzeReviewsInParallel } from './parallel-analysis.ts';
import { makeReview } from '../../../test/support/builders.ts';

const root = new URL('../../../', import.meta.url);

/**
 * Reviews of one to four sentences from the project's held-out set (137: not whole batches); one in
 * eleven is marked as written in Spanish, which the analysis does not read.
 */
function sampleReviews(count = 137): Review[] {
  const sentences = readFileSync(new URL('test/fixtures/absa-own.jsonl', root), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { text: string });
  return Array.from({ length: count }, (_, i) => {
    const picked = Array.from(
      { length: 1 + (i % 4) },
      (_, k) => sentences[(i * 7 + k) % sentences.length]!,
    );
    return makeReview({
      id: `review-${i}`,
      rating: 1 + (i % 5),
      text: picked.map((s) => s.text).join(i % 3 === 0 ? '\n\n' : ' '),
      language: i % 11 === 5 ? 'es' : 'en',
    });
  });
}

let lexicon: Lexicon;
beforeAll(async () => {
  const { loadLexicon } = await import('../../content/load-lexicon.ts');
  ({ lexicon } = await loadLexicon(new URL('content', root).pathname));
});

const scratch = mkdtempSync(path.join(tmpdir(), 'analysis-worker-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A worker module written for the test: its body is `source`. */
function workerFile(source: string): URL {
  const file = path.join(mkdtempSync(path.join(scratch, 'worker-')), 'worker.mjs');
  writeFileSync(file, source);
  return pathToFileURL(file);
}

// Workers start Node and wink and are given the model, beside the retrain test in CI.
describe('the reviews read over several threads', { timeout: 60_000 }, () => {
  test('give what one thread gives, review by review, in order (model and lexicon)', async () => {
    const reviews = sampleReviews();
    const failures: string[] = [];
    const parallel = await analyzeReviewsInParallel(reviews, lexicon, {
      threads: 3,
      minPerThread: 1,
      onWorkerFailure: (problem) => failures.push(problem),
    });
    expect(failures).toEqual([]);
    expect(parallel).toEqual(analyzeReviews(reviews, lexicon, defaultAspectModel()));
    expect(parallel.map((a) => a.review)).toEqual(reviews);
    expect(parallel.some((a) => a.aspects.length > 0)).toBe(true);
    const spanish = parallel.filter((a) => a.review.language === 'es');
    expect(spanish.length).toBeGreaterThan(5);
    for (const analysis of spanish) {
      expect(analysis.sentences.length).toBeGreaterThan(0);
      expect(analysis.sentences.flatMap((sentence) => sentence.aspects)).toEqual([]);
    }
  });

  test('give what one thread gives with the lexicon alone', async () => {
    const reviews = sampleReviews();
    const parallel = await analyzeReviewsInParallel(reviews, lexicon, {
      threads: 2,
      minPerThread: 1,
      model: false,
    });
    expect(parallel).toEqual(analyzeReviews(reviews, lexicon, null));
  });

  test("a worker's batch lands at the reviews it claimed", async () => {
    // Eleven batches: this thread cannot have claimed them all before the worker starts.
    const reviews = sampleReviews(537);
    const expected = analyzeReviews(reviews, lexicon, defaultAspectModel());
    // Claims one batch and answers it with a marker instead of reading it.
    const worker = workerFile(`
      import { parentPort, workerData } from 'node:worker_threads';
      const batch = Atomics.add(new Int32Array(workerData.next), 0, 1);
      const size = Math.min(workerData.batchSize, workerData.reviews.length - batch * workerData.batchSize);
      if (size > 0) {
        const marker = { title: [], sentences: [], aspects: [{ aspect: 'warranty', polarity: 'neutral' }] };
        parentPort.postMessage({ batch, findings: Array.from({ length: size }, () => marker) });
      }
      parentPort.postMessage({ done: true });
    `);
    const analyses = await analyzeReviewsInParallel(reviews, lexicon, {
      threads: 2,
      minPerThread: 1,
      worker,
      onWorkerFailure: (problem) => expect.fail(problem),
    });
    const marked = analyses.flatMap((a, index) => (a.sentences.length === 0 ? [index] : []));
    expect(marked.length).toBeGreaterThan(0);
    expect(marked[0]! % 50).toBe(0);
    expect(marked).toEqual(Array.from({ length: marked.length }, (_, k) => marked[0]! + k));
    for (const [index, analysis] of analyses.entries()) {
      expect(analysis.review).toBe(reviews[index]);
      if (!marked.includes(index)) expect(analysis).toEqual(expected[index]);
    }
  });

  test('a worker that fails loses nothing: this thread reads its reviews, and says why', async () => {
    const reviews = sampleReviews();
    const expected = analyzeReviews(reviews, lexicon, defaultAspectModel());
    for (const [source, reason] of [
      ["throw new Error('the model file is unreadable');", /failed: the model file is unreadable/],
      ['process.exit(3);', /exited \(code 3\) unfinished/],
      // Claims a batch, then fails before it delivers it.
      [
        `import { workerData } from 'node:worker_threads';
         Atomics.add(new Int32Array(workerData.next), 0, 1);
         throw new Error('out of memory');`,
        /failed: out of memory/,
      ],
    ] as const) {
      const problems: string[] = [];
      const analyses = await analyzeReviewsInParallel(reviews, lexicon, {
        threads: 2,
        minPerThread: 1,
        worker: workerFile(source),
        onWorkerFailure: (problem) => problems.push(problem),
      });
      expect(analyses).toEqual(expected);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(reason);
      expect(problems[0]).toMatch(/this thread read its reviews instead/);
    }
  });

  test('a failure on this thread rejects, and stops the workers', async () => {
    const reviews = sampleReviews();
    // A worker that never finishes on its own: it only writes the time, over and over.
    const beat = path.join(scratch, 'heartbeat');
    const endless = workerFile(`
      import { writeFileSync } from 'node:fs';
      setInterval(() => writeFileSync(${JSON.stringify(beat)}, String(performance.now())), 10);
    `);
    const broken = { ...lexicon, aspects: null } as unknown as Lexicon;
    await expect(
      analyzeReviewsInParallel(reviews, broken, { threads: 2, minPerThread: 1, worker: endless }),
    ).rejects.toThrow();
    // Stopped, it writes no more (or never did).
    const last = () => (existsSync(beat) ? readFileSync(beat, 'utf8') : 'none');
    const pause = () => new Promise((resolve) => setTimeout(resolve, 200));
    await pause();
    const before = last();
    await pause();
    expect(last()).toBe(before);
  });

  test('too few reviews for a second thread are read on this one, without a worker', async () => {
    const reviews = sampleReviews().slice(0, 10);
    // The worker would report a failure: it is not started.
    const failing = workerFile("throw new Error('started');");
    const problems: string[] = [];
    const onWorkerFailure = (problem: string) => problems.push(problem);
    const analyses = await analyzeReviewsInParallel(reviews, lexicon, {
      threads: 4,
      worker: failing,
      onWorkerFailure,
    });
    expect(analyses).toEqual(analyzeReviews(reviews, lexicon, defaultAspectModel()));
    await analyzeReviewsInParallel(reviews, lexicon, {
      threads: 1,
      minPerThread: 1,
      worker: failing,
      onWorkerFailure,
    });
    expect(problems).toEqual([]);
  });
});
