import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { nowIso } from "../../lib/clock";
import { HOLD_STALE_MS } from "../inflight/heartbeat";

/**
 * Credit holds (issue #10, crash-safe billing). A billed operation's charge is held by the
 * instance doing the work (`chargeCredits(..., {hold: true})` writes the hold with the charge)
 * until the work answers. Every way a hold ends is one statement that deletes it, so only one
 * of them happens: the work answers (settled, the credits stay spent), the work fails, the
 * instance restarts, or the heartbeat stops (each refunds with credit_refund, which writes the
 * refund's ledger row and is itself once-only).
 */

const INTERRUPTED = "interrupted before it answered";

/*
 * Locks are always taken in one order, the hold rows first, then the balances: a refund happens
 * only for a hold its statement deleted. Statements ending many holds skip the holds another
 * one is ending, and refund user by user in id order, so two of them never wait on each other.
 */

/** Deletes the holds `which` selects (it must lock them: `for update skip locked`) and refunds each. */
async function refundHoldsWhere(deps: Deps, which: SQL, reason: string): Promise<number> {
  const [row] = await queryRows<{ refunded: number }>(
    deps.db,
    sql`with gone as (
        delete from credit_holds h where h.consumption_id in (${which})
        returning h.consumption_id, h.user_id),
      refunded as (
        select r.applied
        from (select * from gone order by user_id, consumption_id) g
        cross join lateral credit_refund(g.consumption_id, ${reason},
          ${nowIso(deps)}::timestamptz) r)
      select count(*) filter (where applied)::int as refunded from refunded`,
  );
  return row?.refunded ?? 0;
}

/**
 * The work failed: the hold goes and the credits come back. If the hold is already gone, its
 * end was decided elsewhere (the sweep or a restart refunded it): nothing more happens.
 */
export async function refundHold(deps: Deps, consumptionId: string, reason: string) {
  try {
    const [row] = await queryRows<{ applied: boolean; balance: number | null }>(
      deps.db,
      sql`with gone as (
          delete from credit_holds where consumption_id = ${consumptionId}::uuid
          returning consumption_id)
        select r.applied, r.balance from gone
        cross join lateral credit_refund(gone.consumption_id, ${reason},
          ${nowIso(deps)}::timestamptz) r`,
    );
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
  return refundHoldsWhere(
    deps,
    sql`select consumption_id from credit_holds where instance_id = ${deps.work.instanceId}
        for update skip locked`,
    INTERRUPTED,
  );
}

/** Holds refunded by one sweep at most; the next minute's sweep takes the rest. */
const HOLD_SWEEP_BATCH = 500;

/**
 * Scheduled every minute: holds whose heartbeat stopped HOLD_STALE_MS ago (their instance died
 * or hangs) are refunded, so within two minutes of the heartbeat stopping.
 */
export async function refundStaleHolds(deps: Deps): Promise<{ refunded: number }> {
  const before = new Date(deps.clock.now().getTime() - HOLD_STALE_MS).toISOString();
  const refunded = await refundHoldsWhere(
    deps,
    sql`select consumption_id from credit_holds
        where heartbeat_at < ${before}::timestamptz
        order by heartbeat_at limit ${HOLD_SWEEP_BATCH}
        for update skip locked`,
    INTERRUPTED,
  );
  return { refunded };
}

/**
 * For the claim of an Idempotency-Key whose lease expired: the hold a previous attempt with
 * this key left (same heartbeat as the key, so just as stale) is refunded in the claim's
 * statement, before the retry is charged again.
 */
export function orphanedHoldRefundSql(
  deps: Deps,
  input: { userId: string; key: string },
  staleBefore: string,
) {
  return sql`orphans as (
      delete from credit_holds h
      where h.user_id = ${input.userId} and h.idempotency_key = ${input.key}
        and h.heartbeat_at <= ${staleBefore}::timestamptz
      returning h.consumption_id),
    orphans_refunded as (
      select r.applied from orphans
      cross join lateral credit_refund(orphans.consumption_id, ${INTERRUPTED},
        ${nowIso(deps)}::timestamptz) r)`;
}
