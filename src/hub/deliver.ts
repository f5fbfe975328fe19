// Content delivery: POSTs a claimed delivery's topic bytes to its callback and records the outcome.
// A 2xx completes it; 410 Gone removes the subscription at once; any other answer is retried after
// the configured delays, and the third failure in a row removes the subscription and says so.
import { createHmac } from 'node:crypto';
import { topicLinkHeader } from '../core/site.ts';
import { ANSWER_BYTES, type HubContext, type HubEvent } from './context.ts';
import type { Delivery, Subscription, TopicVersion } from './store.ts';
import { sendDenied } from './verify.ts';

/** Consecutive failed deliveries after which the hub unsubscribes the callback. */
export const MAX_CONSECUTIVE_FAILURES = 3;

type AttemptEvent = Omit<Extract<HubEvent, { kind: 'delivery' }>, 'outcome'>;

/** The wait before the next attempt: one delay per attempt, the last one repeating. */
export function retryDelay(delays: readonly number[], attempts: number): number {
  return delays[Math.min(attempts, delays.length - 1)] ?? 0;
}

function deliveryHeaders(
  ctx: HubContext,
  delivery: Delivery,
  subscription: Subscription,
  version: TopicVersion,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': version.contentType,
    Link: topicLinkHeader(ctx.siteUrl, ctx.topicPaths.get(delivery.topic)!),
  };
  // The signature covers the exact body bytes, so the subscriber can check them as received.
  if (subscription.secret)
    headers['X-Hub-Signature'] =
      `sha256=${createHmac('sha256', subscription.secret).update(version.body).digest('hex')}`;
  return headers;
}

/** The callback's status, or 0 and the reason when no answer came. */
async function post(
  ctx: HubContext,
  delivery: Delivery,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; detail?: string }> {
  try {
    const answer = await ctx.fetcher({
      method: 'POST',
      url: new URL(delivery.callback),
      headers,
      body,
      timeoutMs: ctx.timeoutMs,
      maxBodyBytes: ANSWER_BYTES,
    });
    return { status: answer.status };
  } catch (error) {
    return { status: 0, detail: (error as Error).message };
  }
}

/** Expired leases get nothing; a vanished subscription or version has nothing to send. */
async function skip(ctx: HubContext, delivery: Delivery, subscribed: boolean): Promise<void> {
  await ctx.store.dropDelivery(delivery);
  ctx.onEvent({
    kind: 'delivery',
    callback: delivery.callback,
    topic: delivery.topic,
    outcome: 'skipped',
    status: 0,
    attempt: delivery.attempts + 1,
    detail: subscribed ? 'the lease has expired' : 'no longer subscribed',
  });
}

/** 410 Gone: the subscriber asks to be removed, so it is, without retries. */
async function removeGone(ctx: HubContext, delivery: Delivery, event: AttemptEvent) {
  await ctx.store.deleteSubscription(delivery.callback, delivery.topic);
  ctx.onEvent({ ...event, outcome: 'gone' });
  ctx.onEvent({
    kind: 'removal',
    callback: delivery.callback,
    topic: delivery.topic,
    reason: 'the callback answered 410 Gone',
  });
}

/** Schedules a retry, or at the last allowed failure removes the subscription and tells the callback. */
async function recordFailure(ctx: HubContext, delivery: Delivery, event: AttemptEvent) {
  ctx.onEvent({ ...event, outcome: 'failed' });
  const retryAt = ctx.now() + retryDelay(ctx.retryDelaysMs, delivery.attempts);
  const failures = await ctx.store.failDelivery(delivery, retryAt, MAX_CONSECUTIVE_FAILURES);
  if (failures < MAX_CONSECUTIVE_FAILURES) return;
  const reason = `${failures} consecutive failed deliveries`;
  ctx.onEvent({ kind: 'removal', callback: delivery.callback, topic: delivery.topic, reason });
  await sendDenied(ctx, delivery.callback, delivery.topic, reason);
}

/** Makes one attempt at a claimed delivery and records what came of it. */
export async function deliver(ctx: HubContext, delivery: Delivery): Promise<void> {
  const subscription = await ctx.store.getSubscription(delivery.callback, delivery.topic);
  const version = await ctx.store.getVersion(delivery.versionHash);
  if (!subscription || subscription.expiresAt <= ctx.now() || !version)
    return skip(ctx, delivery, subscription !== undefined);
  const headers = deliveryHeaders(ctx, delivery, subscription, version);
  const { status, detail } = await post(ctx, delivery, headers, version.body);
  const event: AttemptEvent = {
    kind: 'delivery',
    callback: delivery.callback,
    topic: delivery.topic,
    status,
    attempt: delivery.attempts + 1,
    ...(detail === undefined ? {} : { detail }),
  };
  if (status >= 200 && status < 300) {
    await ctx.store.completeDelivery(delivery);
    ctx.onEvent({ ...event, outcome: 'delivered' });
  } else if (status === 410) await removeGone(ctx, delivery, event);
  else await recordFailure(ctx, delivery, event);
}
