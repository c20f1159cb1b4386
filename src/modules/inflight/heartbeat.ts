import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { renewWork } from "./queries";

/** How often an instance renews the leases of the work it is doing. */
const HEARTBEAT_MS = 10_000;
/** An in-flight Idempotency-Key not renewed for this long may be taken over by a retry. */
export const KEY_LEASE_MS = 30_000;
/** A credit hold not renewed for this long is refunded by the sweep (every minute: < 2 min). */
export const HOLD_STALE_MS = 60_000;
/** An agent run not renewed for this long is claimed again by the sweep (every minute). */
export const RUN_LEASE_MS = 90_000;

/**
 * The work this instance has in flight: credit holds, Idempotency-Keys and agent runs. While any
 * is tracked, one statement every HEARTBEAT_MS renews all of them (a hold's heartbeat, a key's
 * lease, a run's lease); nothing tracked, no timer. Work that stops being renewed (the process
 * died, or hung) is someone else's to finish after its lease: that is what makes a crash cost
 * the user nothing and free their key within seconds instead of 24 hours.
 */
export interface WorkInFlight {
  /** Names this instance's work in the database (config INSTANCE_ID). */
  readonly instanceId: string;
  trackHold(consumptionId: string): void;
  untrackHold(consumptionId: string): void;
  trackKey(userId: string, key: string): void;
  untrackKey(userId: string, key: string): void;
  /** An agent run claimed with this fencing token (`attempts`). */
  trackRun(pipelineId: string, attempts: number): void;
  untrackRun(pipelineId: string): void;
  /** Renews everything tracked now (the timer's work; tests call it). */
  beat(): Promise<void>;
  /** Stops renewing: what is still tracked will be recovered like a crashed instance's work. */
  stop(): void;
}

interface Tracked {
  holds: Iterable<string>;
  keys: Iterable<[string, string]>;
  runs: Iterable<[string, number]>;
}

/**
 * `shared` (Node): one timer and one statement renew everything the instance tracks. `per-item`
 * (Workers): each tracked item gets its own timer, started inside the request that tracks it,
 * because a Worker's database connection belongs to one request and may not be used by another.
 */
export type HeartbeatMode = "shared" | "per-item";

export function createWorkInFlight(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  instanceId: string;
  mode?: HeartbeatMode;
  intervalMs?: number;
}): WorkInFlight {
  const holds = new Set<string>();
  const keys = new Map<string, [string, string]>();
  const runs = new Map<string, number>();
  const interval = deps.intervalMs ?? HEARTBEAT_MS;
  let timer: ReturnType<typeof setInterval> | undefined;
  const itemTimers = new Map<string, ReturnType<typeof setInterval>>();
  let beating: Promise<void> | undefined;
  let stopped = false;
  let failing = false;

  const idle = () => holds.size === 0 && keys.size === 0 && runs.size === 0;
  const unref = (handle: ReturnType<typeof setInterval>) =>
    // Node: a pending renewal never keeps the process alive on its own.
    (handle as { unref?: () => void }).unref?.();

  async function renew(items: Tracked) {
    const now = deps.clock.now().getTime();
    const at = (ms: number) => sql`${new Date(now + ms).toISOString()}::timestamptz`;
    try {
      const renewed = await renewWork(deps.db, {
        holdIds: [...items.holds],
        keyPairs: [...items.keys],
        runPairs: [...items.runs],
        instanceId: deps.instanceId,
        holdsAt: at(0),
        keysUntil: at(KEY_LEASE_MS),
        runsUntil: at(RUN_LEASE_MS),
      });
      if (!renewed) return;
      if (failing) deps.logger.info("work heartbeat renewed again");
      failing = false;
    } catch (error) {
      if (!failing) deps.logger.warn("work heartbeat failed", { error: String(error) });
      failing = true;
    }
  }

  function beat(): Promise<void> {
    // One renewal at a time: a slow database gets no pile of overlapping statements.
    beating ??= renew({ holds, keys: keys.values(), runs }).finally(() => {
      beating = undefined;
    });
    return beating;
  }

  function track(id: string, items: Tracked) {
    if (stopped) return;
    if (deps.mode === "per-item") {
      if (itemTimers.has(id)) return;
      const handle = setInterval(() => void renew(items), interval);
      unref(handle);
      itemTimers.set(id, handle);
      return;
    }
    if (timer !== undefined) return;
    timer = setInterval(() => void beat(), interval);
    unref(timer);
  }

  function untrack(id: string) {
    const handle = itemTimers.get(id);
    if (handle !== undefined) {
      clearInterval(handle);
      itemTimers.delete(id);
    }
    if (timer !== undefined && idle()) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  const none = { holds: [], keys: [], runs: [] };
  return {
    instanceId: deps.instanceId,
    trackHold(id) {
      holds.add(id);
      track(`h:${id}`, { ...none, holds: [id] });
    },
    untrackHold(id) {
      holds.delete(id);
      untrack(`h:${id}`);
    },
    trackKey(userId, key) {
      const pair: [string, string] = [userId, key];
      keys.set(`${userId}\n${key}`, pair);
      track(`k:${userId}\n${key}`, { ...none, keys: [pair] });
    },
    untrackKey(userId, key) {
      keys.delete(`${userId}\n${key}`);
      untrack(`k:${userId}\n${key}`);
    },
    trackRun(id, attempts) {
      runs.set(id, attempts);
      track(`r:${id}`, { ...none, runs: [[id, attempts]] });
    },
    untrackRun(id) {
      runs.delete(id);
      untrack(`r:${id}`);
    },
    beat,
    stop() {
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      for (const handle of itemTimers.values()) clearInterval(handle);
      itemTimers.clear();
    },
  };
}
