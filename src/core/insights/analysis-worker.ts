// A worker thread of `analyzeReviewsInParallel`: claims batches of the reviews from the shared
// counter until none are left, reads each with the shipped model (or the lexicon alone) and posts
// back what it found, batch by batch. The model comes from the thread that started this one, in
// one message, once it has read it: its weight tables are shared, not read and parsed again.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeBatch, analyzerFor, type ReviewFindings, type ReviewInput } from './analysis.ts';
import type { Lexicon } from './lexicon.ts';
import { aspectModelFromShared, type SharedAspectModel } from './model/aspect-model.ts';

export interface AnalysisJob {
  lexicon: Lexicon;
  /** Whether the model reads the reviews (false: the lexicon alone); it comes in a ModelMessage. */
  model: boolean;
  reviews: ReviewInput[];
  batchSize: number;
  /** One Int32: the next batch to claim, shared by every thread of the job. */
  next: SharedArrayBuffer;
}

/** What the starting thread sends a worker whose job has a model, before it reads anything. */
export interface ModelMessage {
  model: SharedAspectModel;
}

export type AnalysisMessage = { batch: number; findings: ReviewFindings[] } | { done: true };

const job = workerData as AnalysisJob;
const model = job.model
  ? await new Promise<SharedAspectModel>((resolve) =>
      parentPort!.once('message', (message: ModelMessage) => resolve(message.model)),
    )
  : null;
const analyzer = analyzerFor(job.lexicon, model && aspectModelFromShared(model));
const next = new Int32Array(job.next);
const batches = Math.ceil(job.reviews.length / job.batchSize);
for (let batch = Atomics.add(next, 0, 1); batch < batches; batch = Atomics.add(next, 0, 1)) {
  const findings = analyzeBatch(analyzer, job.reviews, batch, job.batchSize);
  parentPort!.postMessage({ batch, findings } satisfies AnalysisMessage);
}
parentPort!.postMessage({ done: true } satisfies AnalysisMessage);
