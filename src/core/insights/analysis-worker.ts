// A worker thread of `analyzeReviewsInParallel`: claims batches of the reviews from the shared
// counter until none are left, reads each with the shipped model (or the lexicon alone) and posts
// back what it found, batch by batch.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeBatch, analyzerFor, type ReviewFindings } from './analysis.ts';
import type { Lexicon } from './lexicon.ts';
import { defaultAspectModel } from './model/default-model.ts';

export interface AnalysisJob {
  lexicon: Lexicon;
  /** Whether the shipped model reads the reviews (false: the lexicon alone). */
  model: boolean;
  reviews: { text: string; rating: number }[];
  batchSize: number;
  /** One Int32: the next batch to claim, shared by every thread of the job. */
  next: SharedArrayBuffer;
}

export type AnalysisMessage = { batch: number; findings: ReviewFindings[] } | { done: true };

const job = workerData as AnalysisJob;
const analyzer = analyzerFor(job.lexicon, job.model ? defaultAspectModel() : null);
const next = new Int32Array(job.next);
const batches = Math.ceil(job.reviews.length / job.batchSize);
for (let batch = Atomics.add(next, 0, 1); batch < batches; batch = Atomics.add(next, 0, 1)) {
  const findings = analyzeBatch(analyzer, job.reviews, batch, job.batchSize);
  parentPort!.postMessage({ batch, findings } satisfies AnalysisMessage);
}
parentPort!.postMessage({ done: true } satisfies AnalysisMessage);
