// Change detection: compares each topic's bytes with what was last distributed, queues a
// notification for every active subscriber when they differ, and words the publisher's report.
import { createHash } from 'node:crypto';
import type { HubContext } from './context.ts';
import { HubRequestError } from './requests.ts';

export interface TopicReport {
  topic: string;
  changed: boolean;
  queued: number;
  reviews: { added: number; changed: number; removed: number; first: boolean } | null;
}

type ReviewDiff = NonNullable<TopicReport['reviews']>;

function sha256(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Review id → hash of its record, from the reviews dataset bytes. */
function reviewHashesOf(body: Buffer): Record<string, string> {
  const dataset = JSON.parse(body.toString('utf8')) as { reviews: { id: string }[] };
  const hashes: Record<string, string> = {};
  for (const review of dataset.reviews)
    hashes[review.id] = sha256(JSON.stringify(review)).slice(0, 16);
  return hashes;
}

function diffReviews(
  before: Record<string, string> | null | undefined,
  after: Record<string, string>,
): ReviewDiff {
  if (!before) return { added: Object.keys(after).length, changed: 0, removed: 0, first: true };
  let added = 0;
  let changed = 0;
  for (const [id, hash] of Object.entries(after)) {
    if (!(id in before)) added += 1;
    else if (before[id] !== hash) changed += 1;
  }
  const removed = Object.keys(before).filter((id) => !(id in after)).length;
  return { added, changed, removed, first: false };
}

/** Publishes one topic: records the version if it changed and queues its deliveries. */
async function publishTopic(ctx: HubContext, topic: string, now: number): Promise<TopicReport> {
  const path = ctx.topicPaths.get(topic);
  if (!path) throw new HubRequestError(400, `unknown topic ${topic}`);
  const { body, contentType } = ctx.topicContent(path);
  const isReviews = path === '/reviews.json';
  const before = isReviews ? await ctx.store.getTopicState(topic) : undefined;
  const reviewHashes = isReviews ? reviewHashesOf(body) : null;
  const outcome = await ctx.store.publish(
    { hash: sha256(body), topic, contentType, body },
    reviewHashes,
    now,
  );
  return {
    topic,
    changed: outcome.changed,
    queued: outcome.queued,
    reviews:
      reviewHashes && outcome.changed ? diffReviews(before?.reviewHashes, reviewHashes) : null,
  };
}

/** Publishes the topics in order; the caller wakes the worker for what was queued. */
export async function publishTopics(
  ctx: HubContext,
  topics: readonly string[],
): Promise<TopicReport[]> {
  const reports: TopicReport[] = [];
  const now = ctx.now();
  for (const topic of topics) reports.push(await publishTopic(ctx, topic, now));
  return reports;
}

function describeReport(report: TopicReport): string {
  if (!report.changed) return `${report.topic}: unchanged, nothing sent`;
  const reviews = report.reviews
    ? report.reviews.first
      ? ` (first distribution: ${report.reviews.added} reviews)`
      : ` (reviews: ${report.reviews.added} added, ${report.reviews.changed} changed, ${report.reviews.removed} removed)`
    : '';
  return `${report.topic}: changed${reviews}, notifying ${report.queued} subscriber${report.queued === 1 ? '' : 's'}`;
}

/** The publisher's answer: one line per topic. */
export function describeReports(reports: readonly TopicReport[]): string {
  return reports.map(describeReport).join('\n');
}
