// What every part of the hub shares: the store, the outbound fetcher, the callback check, the clock
// and the configured limits. The hub's modules are functions over this context; nothing here does
// I/O of its own, so the context can be built in a test with a fake fetcher and a fake clock.
import { TOPIC_PATHS, absoluteUrl, type TopicPath } from '../core/site.ts';
import type { Fetcher } from './http-client.ts';
import type { LeasePolicy } from './requests.ts';
import type { HubStore } from './store.ts';

/** Answers from callbacks are read up to this many bytes; the hub never needs more. */
export const ANSWER_BYTES = 1024;

export interface TopicContent {
  body: Buffer;
  contentType: string;
}

/**
 * Refuses a callback whose host is not allowed (a reason), or accepts it (undefined). Throws
 * `CallbackLookupUnavailable` when the host could not be looked up for now (the resolver timed out
 * or failed), which is no verdict on the callback.
 */
export type CallbackCheck = (callback: URL, allowPrivate: boolean) => Promise<string | undefined>;

/** The callback's host could not be looked up just now: the subscriber may retry. */
export class CallbackLookupUnavailable extends Error {
  constructor(host: string, code: string | undefined) {
    super(`the callback host ${host} could not be looked up just now (${code ?? 'DNS failure'})`);
    this.name = 'CallbackLookupUnavailable';
  }
}

export interface HubOptions {
  store: HubStore;
  fetcher: Fetcher;
  /** Checks a callback's host before a request is queued (in production, a DNS lookup). */
  resolveCallback: CallbackCheck;
  siteUrl: string;
  /** The bytes and Content-Type a GET of the topic serves (the hub's own build). */
  topicContent: (path: TopicPath) => TopicContent;
  lease: LeasePolicy;
  retryDelaysMs: readonly number[];
  maxSubscriptionsPerHost: number;
  rateLimitPerMinute: number;
  allowPrivateCallbacks: boolean;
  claimSeconds: number;
  /** Deadline of every verification, delivery and denial request. */
  timeoutMs: number;
  concurrency?: number;
  now?: () => number;
  log?: (message: string) => void;
  /** Every verification, delivery attempt and subscription removal, for logs and metrics. */
  onEvent?: (event: HubEvent) => void;
}

/** What the hub did, one event per verification, delivery attempt and removal. */
export type HubEvent =
  | {
      kind: 'verification';
      mode: 'subscribe' | 'unsubscribe';
      callback: string;
      topic: string;
      outcome: 'verified' | 'refused';
      detail?: string;
    }
  | {
      kind: 'delivery';
      callback: string;
      topic: string;
      /** delivered: 2xx; failed: will be retried or removed; gone: 410; skipped: lease expired. */
      outcome: 'delivered' | 'failed' | 'gone' | 'skipped';
      status: number;
      attempt: number;
      detail?: string;
    }
  | { kind: 'removal'; callback: string; topic: string; reason: string };

export type HubContext = Required<Omit<HubOptions, 'log' | 'onEvent'>> & {
  log: (message: string) => void;
  onEvent: (event: HubEvent) => void;
  /** Absolute topic URL → the site path that serves it. */
  topicPaths: ReadonlyMap<string, TopicPath>;
};

/** The options with their defaults filled in. */
export function createContext(options: HubOptions): HubContext {
  return {
    concurrency: 16,
    now: Date.now,
    log: () => {},
    onEvent: () => {},
    ...options,
    topicPaths: new Map(TOPIC_PATHS.map((path) => [absoluteUrl(options.siteUrl, path), path])),
  };
}
