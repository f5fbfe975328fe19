// Verification of intents and the denial notice: the hub asks the callback to confirm each
// subscribe or unsubscribe with a fresh challenge, and tells it when a subscription was removed.
import { randomBytes } from 'node:crypto';
import { ANSWER_BYTES, type HubContext } from './context.ts';
import type { PendingVerification } from './store.ts';

/** The verification GET: the intent, the challenge, and on subscribe the granted lease. */
function verificationUrl(intent: PendingVerification, challenge: string): URL {
  const url = new URL(intent.callback);
  url.searchParams.append('hub.mode', intent.mode);
  url.searchParams.append('hub.topic', intent.topic);
  url.searchParams.append('hub.challenge', challenge);
  // A subscriber must learn the lease it was granted, which may be clamped from what it asked.
  if (intent.mode === 'subscribe')
    url.searchParams.append('hub.lease_seconds', String(intent.leaseSeconds));
  return url;
}

/** Only a 2xx whose body is exactly the challenge verifies; anything else says why not. */
async function askCallback(
  ctx: HubContext,
  url: URL,
  challenge: string,
): Promise<{ verified: boolean; detail?: string }> {
  try {
    const answer = await ctx.fetcher({
      method: 'GET',
      url,
      timeoutMs: ctx.timeoutMs,
      maxBodyBytes: ANSWER_BYTES,
    });
    if (answer.status >= 200 && answer.status < 300 && answer.body.equals(Buffer.from(challenge)))
      return { verified: true };
    return {
      verified: false,
      detail: `answered ${answer.status} without echoing the challenge`,
    };
  } catch (error) {
    return { verified: false, detail: (error as Error).message };
  }
}

/** A verified intent takes effect: the subscription is saved (lease from now) or removed. */
async function applyIntent(ctx: HubContext, intent: PendingVerification, host: string) {
  const now = ctx.now();
  if (intent.mode === 'subscribe') {
    const saved = await ctx.store.saveSubscriptionWithinCap(
      {
        callback: intent.callback,
        topic: intent.topic,
        callbackHost: host,
        secret: intent.secret,
        leaseSeconds: intent.leaseSeconds,
        expiresAt: now + intent.leaseSeconds * 1000,
        failures: 0,
        verifiedAt: now,
      },
      ctx.maxSubscriptionsPerHost,
      now,
    );
    // The request was admitted under the cap, but others for the host were verified first.
    if (!saved) {
      const reason = `the callback host ${host} has the most subscriptions allowed`;
      ctx.onEvent({ kind: 'removal', callback: intent.callback, topic: intent.topic, reason });
      await sendDenied(ctx, intent.callback, intent.topic, reason);
    }
    return;
  }
  // An unsubscribe of nothing (never subscribed, or gone already) removes nothing to report.
  if (!(await ctx.store.deleteSubscription(intent.callback, intent.topic))) return;
  ctx.onEvent({
    kind: 'removal',
    callback: intent.callback,
    topic: intent.topic,
    reason: 'unsubscribed',
  });
}

/** Verifies one pending intent and removes it from the queue, whatever the answer. */
export async function verifyIntent(ctx: HubContext, intent: PendingVerification): Promise<void> {
  const challenge = randomBytes(32).toString('base64url');
  const url = verificationUrl(intent, challenge);
  const { verified, detail } = await askCallback(ctx, url, challenge);
  ctx.onEvent({
    kind: 'verification',
    mode: intent.mode,
    callback: intent.callback,
    topic: intent.topic,
    outcome: verified ? 'verified' : 'refused',
    ...(detail === undefined ? {} : { detail }),
  });
  // A failed verification leaves any existing subscription as it was.
  if (verified) await applyIntent(ctx, intent, url.hostname);
  await ctx.store.deleteVerification(intent.id);
}

/** A best-effort notice (hub.mode=denied) that the subscription was removed, and why. */
export async function sendDenied(
  ctx: HubContext,
  callback: string,
  topic: string,
  reason: string,
): Promise<void> {
  const url = new URL(callback);
  url.searchParams.append('hub.mode', 'denied');
  url.searchParams.append('hub.topic', topic);
  url.searchParams.append('hub.reason', reason);
  try {
    await ctx.fetcher({ method: 'GET', url, timeoutMs: ctx.timeoutMs, maxBodyBytes: ANSWER_BYTES });
  } catch {
    // Best effort by definition: the subscription is already gone either way.
  }
}
