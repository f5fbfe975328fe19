// The background scheduler: claims due verifications and deliveries from the store, runs at most
// `concurrency` of them at a time (verifications at most half of them), sweeps expired
// subscriptions now and then, and sleeps until the next due delivery (or a poll interval) when
// there is nothing to do.
import type { HubContext } from './context.ts';
import { deliver } from './deliver.ts';
import { verifyIntent } from './verify.ts';

/** The longest the worker sleeps, so work queued by another instance is picked up soon. */
export const POLL_MS = 1000;
/** Expired subscriptions are swept this often; deliveries already skip them on their own. */
export const PURGE_EVERY_MS = 60_000;

/**
 * The most verifications in flight at once: half the slots (at least one). Anyone can queue a
 * verification, of a callback that never answers say, and each holds its slot until the deadline;
 * the other half stays for deliveries to the subscribers the hub already has.
 */
export function verificationSlots(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

export interface Worker {
  start(): void;
  /** Stops scheduling and waits for the running jobs to finish. */
  stop(): Promise<void>;
  /** Runs the background work soon (new intent, publish, or a finished job freed a slot). */
  kick(): void;
}

export function createWorker(ctx: HubContext): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = true;
  let ticking: Promise<void> | undefined;
  let rerun = false;
  let lastPurge = Number.NEGATIVE_INFINITY;
  const inFlight = new Set<Promise<void>>();
  let verifying = 0;

  function kick(): void {
    if (stopped) return;
    if (running) {
      rerun = true;
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), 0);
  }

  /** Counts a job as in flight until it settles; its end frees a slot, so the worker runs again. */
  function track(job: Promise<void>): void {
    const tracked = job
      .catch((error: unknown) => ctx.log(`hub job: ${(error as Error).message}`))
      .finally(() => {
        inFlight.delete(tracked);
        kick();
      });
    inFlight.add(tracked);
  }

  async function purgeIfDue(now: number): Promise<void> {
    if (now - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now;
    await ctx.store.purgeExpired(now);
  }

  /** Claims what fits in the free slots, verifications first, and starts it; how many it claimed. */
  async function work(): Promise<number> {
    const now = ctx.now();
    await purgeIfDue(now);
    const free = ctx.concurrency - inFlight.size;
    if (free <= 0) return 0;
    const claimUntil = now + ctx.claimSeconds * 1000;
    const verifications = await ctx.store.claimVerifications(
      now,
      claimUntil,
      Math.max(0, Math.min(free, verificationSlots(ctx.concurrency) - verifying)),
    );
    for (const verification of verifications) {
      verifying++;
      track(
        verifyIntent(ctx, verification).finally(() => {
          verifying--;
        }),
      );
    }
    const deliveries = await ctx.store.claimDeliveries(
      now,
      claimUntil,
      free - verifications.length,
    );
    for (const delivery of deliveries) track(deliver(ctx, delivery));
    return verifications.length + deliveries.length;
  }

  /**
   * Sleeps until the next due delivery, but never longer than the poll interval. Work that is due
   * but could not be claimed (its callback busy, or every slot taken) waits for the poll: the job
   * that holds it kicks the worker when it ends, so there is no need to ask the store again and
   * again meanwhile.
   */
  async function scheduleNext(claimed: number): Promise<void> {
    const due = await ctx.store.nextDueAt().catch(() => undefined);
    const now = ctx.now();
    const wait =
      due === undefined || (due <= now && claimed === 0)
        ? POLL_MS
        : Math.min(POLL_MS, Math.max(0, due - now));
    timer = setTimeout(() => void tick(), wait);
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    running = true;
    let claimed = 0;
    ticking = work()
      .then((count) => {
        claimed = count;
      })
      .catch((error: unknown) => ctx.log(`hub worker: ${(error as Error).message}`));
    await ticking;
    running = false;
    if (stopped) return;
    if (rerun) {
      rerun = false;
      kick();
      return;
    }
    await scheduleNext(claimed);
  }

  return {
    start() {
      stopped = false;
      kick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await Promise.allSettled([...inFlight]);
    },
    kick,
  };
}
