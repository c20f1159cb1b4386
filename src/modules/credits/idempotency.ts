import type { SQL } from "drizzle-orm";
import { nowIso } from "../../lib/clock";
import type { Deps, IdempotencyClaim, IdempotencyKeyStore } from "../../ports";
import { KEY_LEASE_MS } from "../inflight/heartbeat";
import { INTERRUPTED } from "./holds";
import {
  claimKey,
  completeKey,
  deleteExpiredKeys,
  deleteInFlightKey,
  deleteInFlightKeysOfInstance,
  keptOutcomeCte,
} from "./queries";

/** Outcomes are replayed for at least this long (the issue asks for 24 hours). */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * Claims (user, key) for this request in one statement. A live claim answers with the stored
 * outcome, or says the first request is still running, or that the key was used for a
 * different request. A completed key lives IDEMPOTENCY_TTL_MS; one in flight only KEY_LEASE_MS,
 * renewed by its instance's heartbeat while the request runs, so after a crash a retry takes the
 * key over within seconds, and the statement that takes it over refunds the charge the dead
 * attempt left held (credits/holds.ts).
 */
async function claimIdempotencyKey(
  deps: Deps,
  input: { userId: string; key: string; requestHash: string },
): Promise<IdempotencyClaim> {
  const now = deps.clock.now();
  const lease = new Date(now.getTime() + KEY_LEASE_MS).toISOString();
  const staleBefore = new Date(now.getTime() - KEY_LEASE_MS).toISOString();
  const row = await claimKey(deps.db, {
    userId: input.userId,
    key: input.key,
    requestHash: input.requestHash,
    instanceId: deps.work.instanceId,
    now: now.toISOString(),
    leaseUntil: lease,
    staleBefore,
    orphanReason: INTERRUPTED,
    refundNow: nowIso(deps),
  });
  if (row?.claimed) {
    deps.work.trackKey(input.userId, input.key);
    return { kind: "claimed" };
  }
  // Not claimed and not visible yet: a parallel first request holds it.
  if (!row?.request_hash) return { kind: "in_flight" };
  if (row.request_hash !== input.requestHash) return { kind: "mismatch" };
  if (row.status !== "completed") return { kind: "in_flight" };
  return { kind: "replay", status: row.response_status ?? 200, body: row.response_body };
}

interface KeyOutcome {
  userId: string;
  key: string;
  status: number;
  body: unknown;
}

const keptUntil = (deps: Deps) =>
  new Date(deps.clock.now().getTime() + IDEMPOTENCY_TTL_MS).toISOString();

/** Keeps the outcome of a request whose key is still in flight (one kept already stays). */
export async function completeIdempotencyKey(deps: Deps, input: KeyOutcome) {
  try {
    await completeKey(deps.db, { ...input, expiresAt: keptUntil(deps) });
  } finally {
    deps.work.untrackKey(input.userId, input.key);
  }
}

/**
 * The CTE `kept` that keeps `input` as the key's outcome when `condition` holds, for the
 * statement that settles the request's charge (ai/billing.ts). The caller stops tracking the
 * key (`deps.work.untrackKey`) once that statement has committed.
 */
export function keptIdempotencyOutcomeSql(deps: Deps, input: KeyOutcome, condition: SQL): SQL {
  return keptOutcomeCte({ ...input, expiresAt: keptUntil(deps) }, condition);
}

/** A request that failed on our side gives its key back, so the client's retry can run. */
export async function releaseIdempotencyKey(deps: Deps, input: { userId: string; key: string }) {
  try {
    await deleteInFlightKey(deps.db, input);
  } finally {
    deps.work.untrackKey(input.userId, input.key);
  }
}

/** At start-up: the keys a previous life of this instance left in flight are free again. */
export async function releaseInstanceKeys(deps: Deps): Promise<number> {
  return deleteInFlightKeysOfInstance(deps.db, { instanceId: deps.work.instanceId });
}

export async function purgeExpiredIdempotencyKeys(deps: Deps) {
  await deleteExpiredKeys(deps.db, { now: deps.clock.now().toISOString() });
}

/** What src/http/idempotency.ts asks of this module, as deps.idempotencyKeys (see buildDeps). */
export const idempotencyKeyStore: IdempotencyKeyStore = {
  claim: claimIdempotencyKey,
  complete: completeIdempotencyKey,
  release: releaseIdempotencyKey,
};
