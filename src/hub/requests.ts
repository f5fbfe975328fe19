// Parses and validates a hub request (the form of POST /api/websub/hub, W3C WebSub §5.1, §7) into
// an intent or a publish ping. Pure: the Express route and the tests call it; errors carry the
// 4xx status and a plain-text reason.
import { TOPIC_PATHS, absoluteUrl } from '../core/site.ts';

export const MAX_SECRET_BYTES = 200;
export const MAX_CALLBACK_LENGTH = 2048;

export class HubRequestError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'HubRequestError';
    this.status = status;
  }
}

export interface LeasePolicy {
  defaultSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

export type HubRequest =
  | {
      kind: 'intent';
      mode: 'subscribe' | 'unsubscribe';
      callback: URL;
      topic: string;
      leaseSeconds: number;
      secret: string | null;
    }
  | { kind: 'publish'; topics: string[] };

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** RFC 3986 §6.2.2.2: percent-encoded unreserved characters are equivalent to the characters. */
export function decodeUnreserved(value: string): string {
  return value.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

export function topicUrls(siteUrl: string): string[] {
  return TOPIC_PATHS.map((path) => absoluteUrl(siteUrl, path));
}

function matchTopic(value: string, siteUrl: string): string {
  const decoded = decodeUnreserved(value);
  const topics = topicUrls(siteUrl);
  if (topics.includes(decoded)) return decoded;
  throw new HubRequestError(
    400,
    `unknown topic ${JSON.stringify(value.slice(0, 200))}; topics: ${topics.join(', ')}`,
  );
}

function single(form: URLSearchParams, name: string): string {
  const values = form.getAll(name);
  if (values.length === 0) throw new HubRequestError(400, `${name} is required`);
  if (values.length > 1) throw new HubRequestError(400, `${name} is given more than once`);
  return values[0]!;
}

function parseCallback(value: string): URL {
  if (value.length > MAX_CALLBACK_LENGTH)
    throw new HubRequestError(400, `hub.callback is longer than ${MAX_CALLBACK_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HubRequestError(400, 'hub.callback must be an absolute https URL');
  }
  if (url.protocol !== 'https:')
    throw new HubRequestError(
      400,
      'hub.callback must use https (plain http callbacks are refused)',
    );
  if (url.username || url.password)
    throw new HubRequestError(400, 'hub.callback must not carry credentials');
  // A URL parser reads "https:///x" and "https:\\x" as https://x/: the host was not written.
  if (!/^https:\/\/[^/\\?#]/i.test(value))
    throw new HubRequestError(400, 'hub.callback must name its host right after https://');
  // Port 0 is no port: a connection to it goes to the scheme's default (443) instead.
  if (url.port === '0') throw new HubRequestError(400, 'hub.callback must not use port 0');
  url.hash = '';
  // One spelling per callback (RFC 3986 §6.2.2): "/%65q1" is "/eq1", and "/eq1?" (an empty query)
  // is "/eq1". The verification GET cannot tell them apart, so an unsubscribe in either spelling
  // must remove the subscription made in the other.
  url.pathname = decodeUnreserved(url.pathname);
  url.search = decodeUnreserved(url.search);
  return url;
}

function parseLease(value: string | null, policy: LeasePolicy): number {
  if (value === null) return policy.defaultSeconds;
  if (!/^[0-9]+$/.test(value) || /^0+$/.test(value)) {
    throw new HubRequestError(400, 'hub.lease_seconds must be a positive whole number of seconds');
  }
  const seconds = value.length > 15 ? Number.MAX_SAFE_INTEGER : Number(value);
  return Math.min(policy.maxSeconds, Math.max(policy.minSeconds, seconds));
}

export function parseHubRequest(
  form: URLSearchParams,
  siteUrl: string,
  lease: LeasePolicy,
): HubRequest {
  const mode = form.getAll('hub.mode');
  if (mode.length !== 1)
    throw new HubRequestError(400, 'hub.mode is required, once: subscribe, unsubscribe or publish');
  if (mode[0] === 'publish') {
    const named = [...form.getAll('hub.url'), ...form.getAll('hub.topic')];
    if (named.length === 0) throw new HubRequestError(400, 'publish needs hub.url or hub.topic');
    return {
      kind: 'publish',
      topics: [...new Set(named.map((value) => matchTopic(value, siteUrl)))],
    };
  }
  if (mode[0] !== 'subscribe' && mode[0] !== 'unsubscribe') {
    throw new HubRequestError(400, 'hub.mode must be subscribe, unsubscribe or publish');
  }
  const callback = parseCallback(single(form, 'hub.callback'));
  const topic = matchTopic(single(form, 'hub.topic'), siteUrl);
  const leaseValues = form.getAll('hub.lease_seconds');
  if (leaseValues.length > 1)
    throw new HubRequestError(400, 'hub.lease_seconds is given more than once');
  const secrets = form.getAll('hub.secret');
  if (secrets.length > 1) throw new HubRequestError(400, 'hub.secret is given more than once');
  const secret = secrets[0] ?? null;
  // WebSub §5.1: the secret MUST be less than 200 bytes (bytes, not characters).
  if (secret !== null && Buffer.byteLength(secret, 'utf8') >= MAX_SECRET_BYTES) {
    throw new HubRequestError(400, `hub.secret must be shorter than ${MAX_SECRET_BYTES} bytes`);
  }
  if (secret === '') throw new HubRequestError(400, 'hub.secret must not be empty when given');
  return {
    kind: 'intent',
    mode: mode[0],
    callback,
    topic,
    leaseSeconds: parseLease(leaseValues[0] ?? null, lease),
    secret,
  };
}
