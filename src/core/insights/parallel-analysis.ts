// The reviews' analysis spread over threads, for the build: it is most of the insights' cost, and
// each review is read on its own. The result is what `analyzeReviews` gives, in the same order:
// a review's analysis depends on its text, its rating, the lexicon and the model alone.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Review } from '../review.ts';
import type { AnalysisJob, AnalysisMessage, ModelMessage } from './analysis-worker.ts';
import {
  analyzeBatch,
  analyzerFor,
  analyzeReviews,
  type ReviewAnalysis,
  type ReviewFindings,
} from './analysis.ts';
import type { Lexicon } from './lexicon.ts';
import { shareAspectModel } from './model/aspect-model.ts';
import { defaultAspectModel } from './model/default-model.ts';

/**
 * Below this many reviews per thread a worker costs more than it saves: each one loads its modules
 * and wink's model before it reads a review (the aspect model it is given by this thread).
 */
export const MIN_REVIEWS_PER_THREAD = 1000;

/**
 * Threads used when not told: the machine's cores, at most this many. The model's weight tables
 * are shared, but each worker holds its own wink, word vectors and caches, and past a few threads
 * the rest of the build dominates anyway.
 */
export const DEFAULT_MAX_THREADS = 4;

/**
 * A worker's heap limit. Left to inherit the build's (2 GB, sized for the whole site), a worker may
 * let its garbage grow that far before collecting it; it needs about 100 MB live at 10k reviews
 * (the review texts and the batch in hand; the model's weights are outside the heap).
 */
const WORKER_HEAP_MB = 512;

/** Reviews per batch: threads claim batches as they go, so none waits while another has work. */
const BATCH_SIZE = 50;

// Not a literal in `new URL(...)`, which bundlers would rewrite into an asset of the page build.
const WORKER_FILE = './analysis-worker.ts';

/**
 * A function that gives one copy of each string it is passed. Words, lemmas and tags arrive from a
 * worker as a copy per token; read on this thread they are wink's own strings, shared by every
 * token with the same text. Sharing them again keeps the analyses' heap what it is on one thread
 * (the copies held 8 MB more per 6,000 reviews, so over 100 MB at 100k).
 */
function stringSharer(): (value: string) => string {
  const seen = new Map<string, string>();
  return (value) => {
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  };
}

/** Lets the event loop run: the workers' batches are received between this thread's own. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ParallelOptions {
  /** At most this many threads, this one included (default: the cores, at most DEFAULT_MAX_THREADS). */
  threads?: number;
  /** Whether the shipped model reads the reviews (default); false: the lexicon alone. */
  model?: boolean;
  /** At least this many reviews per thread (default MIN_REVIEWS_PER_THREAD). */
  minPerThread?: number;
  /** The worker module (default analysis-worker.ts beside this one); tests start others. */
  worker?: URL;
  /** Told when a worker failed and this thread read its reviews instead (default: console.warn). */
  onWorkerFailure?: (problem: string) => void;
}

/**
 * `analyzeReviews` with the shipped model (or the lexicon alone) over up to `threads` threads.
 * This thread reads batches of reviews as well; with one thread, or too few reviews to be worth a
 * worker, it is `analyzeReviews` itself. A worker that fails (out of memory, say) loses nothing:
 * this thread reads the batches it did not deliver, and `onWorkerFailure` is told why.
 */
export async function analyzeReviewsInParallel(
  reviews: readonly Review[],
  lexicon: Lexicon,
  options: ParallelOptions = {},
): Promise<ReviewAnalysis[]> {
  const useModel = options.model ?? true;
  const perThread = Math.max(1, options.minPerThread ?? MIN_REVIEWS_PER_THREAD);
  const threads = Math.max(
    1,
    Math.min(
      options.threads ?? Math.min(availableParallelism(), DEFAULT_MAX_THREADS),
      Math.floor(reviews.length / perThread),
    ),
  );
  if (threads === 1)
    return analyzeReviews(reviews, lexicon, useModel ? defaultAspectModel() : null);

  const job: AnalysisJob = {
    lexicon,
    model: useModel,
    reviews: reviews.map(({ text, rating, language, title }) => ({
      text,
      rating,
      language,
      title,
    })),
    batchSize: BATCH_SIZE,
    next: new SharedArrayBuffer(4),
  };
  const next = new Int32Array(job.next);
  const batches = Math.ceil(reviews.length / BATCH_SIZE);
  const found: (ReviewFindings[] | undefined)[] = new Array(batches);
  const problems: string[] = [];
  const share = stringSharer();
  const workers = Array.from(
    { length: threads - 1 },
    () =>
      new Worker(options.worker ?? new URL(WORKER_FILE, import.meta.url), {
        workerData: job,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      }),
  );
  const finished = workers.map(
    (worker) =>
      new Promise<void>((resolve) => {
        let done = false;
        worker.on('message', (message: AnalysisMessage) => {
          if ('done' in message) {
            done = true;
            resolve();
          } else {
            for (const tokens of message.findings.flatMap((review) => [
              ...review.title,
              ...review.sentences.map((sentence) => sentence.tokens),
            ]))
              for (const list of [
                tokens.words,
                tokens.lemmas,
                tokens.pos,
                tokens.types,
                tokens.spaces,
              ])
                for (let i = 0; i < list.length; i++) list[i] = share(list[i]!);
            found[message.batch] = message.findings;
          }
        });
        worker.once('error', (error) => {
          done = true;
          problems.push(`an insights worker thread failed: ${error.message}`);
          resolve();
        });
        worker.once('exit', (code) => {
          if (!done) problems.push(`an insights worker thread exited (code ${code}) unfinished`);
          resolve();
        });
      }),
  );
  try {
    // Read here while the workers start, then handed to them.
    const model = useModel ? defaultAspectModel() : null;
    if (model !== null) {
      const message: ModelMessage = { model: shareAspectModel(model) };
      for (const worker of workers) worker.postMessage(message);
    }
    const analyzer = analyzerFor(lexicon, model);
    const read = (batch: number) => analyzeBatch(analyzer, reviews, batch, BATCH_SIZE);
    for (let batch = Atomics.add(next, 0, 1); batch < batches; batch = Atomics.add(next, 0, 1)) {
      found[batch] = read(batch);
      await breathe();
    }
    await Promise.all(finished);
    // What a failed worker claimed and never delivered.
    for (let batch = 0; batch < batches; batch++) found[batch] ??= read(batch);
  } finally {
    // Stops the workers when this thread failed; the others have exited already.
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  const warn = options.onWorkerFailure ?? ((problem: string) => console.warn(problem));
  for (const problem of problems) warn(`${problem}; this thread read its reviews instead`);
  return reviews.map((review, index) => ({
    review,
    ...found[Math.floor(index / BATCH_SIZE)]![index % BATCH_SIZE]!,
  }));
}
