// Admission of hub requests: rate limits per client address and per callback, parsing, the callback
// host check and the per-host subscription cap, then a queued verification (or, for a publish, the
// report). Answers at once; verification and delivery happen later in the worker.
import { randomBytes } from 'node:crypto';
import { CallbackLookupUnavailable, type HubContext } from './context.ts';
import { describeReports, type TopicReport } from './publish.ts';
import { clientKey, RateLimiter } from './rate-limit.ts';
import { HubRequestError, parseHubRequest, type HubRequest } from './requests.ts';

export const CALLBACK_RATE_LIMIT_PER_MINUTE = 10;
/** When a callback's host could not be looked up for now, the subscriber is asked back after this. */
export const LOOKUP_RETRY_SECONDS = 30;

export interface HubAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** The rate limiters and what admission hands work to. */
export interface Admission {
  byIp: RateLimiter;
  byCallback: RateLimiter;
  publish: (topics: readonly string[]) => Promise<TopicReport[]>;
  /** Wakes the worker for a newly queued verification. */
  kick: () => void;
}

type IntentRequest = Exclude<HubRequest, { kind: 'publish' }>;

export function createAdmission(
  ctx: HubContext,
  work: Pick<Admission, 'publish' | 'kick'>,
): Admission {
  return {
    byIp: new RateLimiter(ctx.rateLimitPerMinute),
    byCallback: new RateLimiter(CALLBACK_RATE_LIMIT_PER_MINUTE),
    ...work,
  };
}

function tooMany(retryAfterSeconds: number, message: string): HubAnswer {
  return {
    status: 429,
    body: `${message}; retry after ${retryAfterSeconds} s`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  };
}

/** The parsed request, or the 4xx answer for a malformed one. */
function parse(ctx: HubContext, form: URLSearchParams): HubRequest | HubAnswer {
  try {
    return parseHubRequest(form, ctx.siteUrl, ctx.lease);
  } catch (error) {
    if (error instanceof HubRequestError) return { status: error.status, body: error.message };
    throw error;
  }
}

/**
 * A new subscription is refused when its callback host already has the most allowed. A host is
 * its name, whatever the port: each of its ports does not get a cap of its own.
 */
async function overHostCap(
  ctx: HubContext,
  request: IntentRequest,
  now: number,
): Promise<HubAnswer | undefined> {
  if (request.mode !== 'subscribe') return undefined;
  const host = request.callback.hostname;
  const existing = await ctx.store.getSubscription(request.callback.href, request.topic);
  const active = await ctx.store.countActiveSubscriptionsForHost(host, now);
  if (existing || active < ctx.maxSubscriptionsPerHost) return undefined;
  return {
    status: 403,
    body: `the callback host ${host} has ${active} subscriptions, the most allowed`,
  };
}

/** Checks a subscribe or unsubscribe and queues its verification. */
async function admitIntent(
  ctx: HubContext,
  admission: Admission,
  request: IntentRequest,
  now: number,
): Promise<HubAnswer> {
  const byCallback = admission.byCallback.take(request.callback.href, now);
  if (!byCallback.allowed)
    return tooMany(byCallback.retryAfterSeconds, 'too many requests for this callback');
  let refused;
  try {
    refused = await ctx.resolveCallback(request.callback, ctx.allowPrivateCallbacks);
  } catch (error) {
    if (!(error instanceof CallbackLookupUnavailable)) throw error;
    return {
      status: 503,
      body: `${error.message}; retry after ${LOOKUP_RETRY_SECONDS} s`,
      headers: { 'Retry-After': String(LOOKUP_RETRY_SECONDS) },
    };
  }
  if (refused) return { status: 400, body: refused };
  const capped = await overHostCap(ctx, request, now);
  if (capped) return capped;
  await ctx.store.addVerification({
    id: randomBytes(16).toString('hex'),
    callback: request.callback.href,
    topic: request.topic,
    mode: request.mode,
    leaseSeconds: request.leaseSeconds,
    secret: request.secret,
    createdAt: now,
  });
  admission.kick();
  return {
    status: 202,
    body: `${request.mode} request accepted; the callback will be asked to verify it\n`,
  };
}

/** Answers one hub request (the form already read); verification and delivery follow later. */
export async function handleHubRequest(
  ctx: HubContext,
  admission: Admission,
  form: URLSearchParams,
  clientIp: string,
): Promise<HubAnswer> {
  const now = ctx.now();
  const byIp = admission.byIp.take(clientKey(clientIp), now);
  if (!byIp.allowed)
    return tooMany(byIp.retryAfterSeconds, 'too many hub requests from this address');
  const request = parse(ctx, form);
  if ('status' in request) return request;
  if (request.kind === 'publish') {
    const reports = await admission.publish(request.topics);
    return { status: 202, body: `${describeReports(reports)}\n` };
  }
  return admitIntent(ctx, admission, request, now);
}
