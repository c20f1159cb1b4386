import { inTimedBatches } from "../../db/batches";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { HOLD_STALE_MS } from "../inflight/heartbeat";
import { refundHeldCharge, refundHoldsOfInstance, refundHoldsStaleBefore } from "./queries";

/**
 * Credit holds (issue #10, crash-safe billing). A billed operation's charge is held by the
 * instance doing the work (`chargeCredits(..., {hold: true})` writes the hold with the charge)
 * until the work answers. Every way a hold ends is one statement that deletes it, so only one
 * of them happens: the work answers (settled, the credits stay spent), the work fails, the
 * instance restarts, or the heartbeat stops (each refunds with credit_refund, which writes the
 * refund's ledger row and is itself once-only).
 */

/** The refund reason of a hold whose work never answered. */
export const INTERRUPTED = "interrupted before it answered";

/**
 * The work failed: the hold goes and the credits come back. If the hold is already gone, its
 * end was decided elsewhere (the sweep or a restart refunded it): nothing more happens.
 */
export async function refundHold(deps: Deps, consumptionId: string, reason: string) {
  try {
    const row = await refundHeldCharge(deps.db, { consumptionId, reason, now: nowIso(deps) });
    return { applied: row?.applied ?? false, balance: row?.balance ?? null };
  } finally {
    deps.work.untrackHold(consumptionId);
  }
}

/**
 * The instance starting up refunds the holds it left when it stopped (crashed, or killed
 * mid-request): no request of a previous life of this instance is still running.
 */
export async function refundInstanceHolds(deps: Deps): Promise<number> {
  return refundHoldsOfInstance(deps.db, {
    instanceId: deps.work.instanceId,
    reason: INTERRUPTED,
    now: nowIso(deps),
  });
}

/**
 * Scheduled every minute: holds whose heartbeat stopped HOLD_STALE_MS ago (their instance died
 * or hangs) are refunded, so within two minutes of the heartbeat stopping. Each refund locks the
 * user's balance until its statement commits, so they go in short timed batches (db/batches.ts):
 * a user's charge waits on one batch at most.
 */
export async function refundStaleHolds(deps: Deps): Promise<{ refunded: number }> {
  const before = new Date(deps.clock.now().getTime() - HOLD_STALE_MS).toISOString();
  // A hold whose consumption was refunded already counts for nothing, which ends the run
  // early: the next minute's takes the rest.
  const refunded = await inTimedBatches((limit) =>
    refundHoldsStaleBefore(deps.db, { before, limit, reason: INTERRUPTED, now: nowIso(deps) }),
  );
  return { refunded };
}
