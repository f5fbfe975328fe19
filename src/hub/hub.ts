// The WebSub hub: answers hub requests at once, then verifies intents and delivers notifications
// from a durable queue in the background. Created by src/server.ts with a store, an outbound
// fetcher, the callback check and the built topics; wires admission, change detection and the
// worker together over one shared context and does no I/O of its own.
import { createAdmission, handleHubRequest, type HubAnswer } from './admission.ts';
import { createContext, type HubOptions } from './context.ts';
import { publishTopics, type TopicReport } from './publish.ts';
import { createWorker } from './worker.ts';

export { CALLBACK_RATE_LIMIT_PER_MINUTE, type HubAnswer } from './admission.ts';
export type { CallbackCheck, HubEvent, HubOptions, TopicContent } from './context.ts';
export { MAX_CONSECUTIVE_FAILURES } from './deliver.ts';
export { describeReports, type TopicReport } from './publish.ts';

export interface Hub {
  /** Answers one hub request (the form already read); verification and delivery follow later. */
  handle(form: URLSearchParams, clientIp: string): Promise<HubAnswer>;
  /** Compares each topic's bytes with what was last distributed and queues notifications on change. */
  publish(topics: readonly string[]): Promise<TopicReport[]>;
  start(): void;
  stop(): Promise<void>;
  /** Runs the background work soon (new intent, publish, or a finished job freed a slot). */
  kick(): void;
}

export function createHub(options: HubOptions): Hub {
  const ctx = createContext(options);
  const worker = createWorker(ctx);
  const publish = async (topics: readonly string[]) => {
    const reports = await publishTopics(ctx, topics);
    worker.kick();
    return reports;
  };
  const admission = createAdmission(ctx, { publish, kick: worker.kick });
  return {
    handle: (form, clientIp) => handleHubRequest(ctx, admission, form, clientIp),
    publish,
    start: worker.start,
    stop: worker.stop,
    kick: worker.kick,
  };
}
