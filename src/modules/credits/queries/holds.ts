import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ASYNC_COMMIT } from "../../../db/batches";
import { type Db, queryRows, queryRowsPrepared } from "../../../db/client";
import { creditHolds } from "../../../db/schema";
import { col } from "../../../db/sql";

/*
 * Locks are always taken in one order, the hold rows first, then the balances: a refund happens
 * only for a hold its statement deleted. Statements ending many holds skip the holds another
 * one is ending, and refund user by user in id order, so two of them never wait on each other.
 */

/**
 * Deletes the holds `which` selects (it must lock them: `for update skip locked`) and refunds
 * each; the statement commits without waiting for its WAL flush (db/batches.ts ASYNC_COMMIT: a
 * batch lost to a crash leaves its holds, which the next sweep refunds).
 */
async function refundHoldsWhere(
  db: Db,
  which: SQL,
  params: { reason: string; now: string },
): Promise<number> {
  const h = alias(creditHolds, "h");
  // A named statement (its values all parameters): the sweep sends it once a batch.
  const [row] = await queryRowsPrepared<{ refunded: number }>(
    db,
    sql`with gone as (
        delete from ${creditHolds} ${h} where ${h.consumptionId} in (${which})
        returning ${h.consumptionId}, ${h.userId}),
      refunded as (
        select r.applied
        from (select * from gone order by user_id, consumption_id) g
        cross join lateral credit_refund(g.consumption_id, ${params.reason},
          ${params.now}::timestamptz) r)
      select count(*) filter (where applied)::int as refunded, ${ASYNC_COMMIT} from refunded`,
  );
  return row?.refunded ?? 0;
}

/** Refunds the holds of instance `instanceId` (a previous life of it left them). */
export function refundHoldsOfInstance(
  db: Db,
  params: { instanceId: string; reason: string; now: string },
): Promise<number> {
  const h = creditHolds;
  return refundHoldsWhere(
    db,
    sql`select ${h.consumptionId} from ${h} where ${h.instanceId} = ${params.instanceId}
        for update skip locked`,
    params,
  );
}

/** Refunds up to `limit` holds whose heartbeat is older than `before`, oldest first. */
export function refundHoldsStaleBefore(
  db: Db,
  params: { before: string; limit: number; reason: string; now: string },
): Promise<number> {
  const h = creditHolds;
  return refundHoldsWhere(
    db,
    sql`select ${h.consumptionId} from ${h}
        where ${h.heartbeatAt} < ${params.before}::timestamptz
        order by ${h.heartbeatAt} limit ${params.limit}
        for update skip locked`,
    params,
  );
}

/** Deletes one hold and refunds its consumption; nothing when the hold is already gone. */
export async function refundHeldCharge(
  db: Db,
  params: { consumptionId: string; reason: string; now: string },
): Promise<{ applied: boolean; balance: number | null } | undefined> {
  const h = creditHolds;
  const [row] = await queryRows<{ applied: boolean; balance: number | null }>(
    db,
    sql`with gone as (
          delete from ${h} where ${h.consumptionId} = ${params.consumptionId}::uuid
          returning ${h.consumptionId})
        select r.applied, r.balance from gone
        cross join lateral credit_refund(gone.consumption_id, ${params.reason},
          ${params.now}::timestamptz) r`,
  );
  return row;
}

/**
 * CTEs `orphans` and `orphans_refunded` for the claim of an Idempotency-Key whose lease
 * expired: the hold a previous attempt with this key left (as stale as the key) is deleted and
 * refunded in the claim's statement.
 */
export function orphanedHoldRefundSql(params: {
  userId: string;
  key: string;
  staleBefore: string;
  reason: string;
  now: string;
}): SQL {
  const h = alias(creditHolds, "h");
  return sql`orphans as (
      delete from ${creditHolds} ${h}
      where ${h.userId} = ${params.userId} and ${h.idempotencyKey} = ${params.key}
        and ${h.heartbeatAt} <= ${params.staleBefore}::timestamptz
      returning ${h.consumptionId}),
    orphans_refunded as (
      select r.applied from orphans
      cross join lateral credit_refund(orphans.consumption_id, ${params.reason},
        ${params.now}::timestamptz) r)`;
}

/** A heartbeat CTE `holds`: renews the heartbeat of the holds `consumptionIds`. */
export function renewHoldsSql(consumptionIds: string[], at: SQL): SQL {
  const h = creditHolds;
  return sql`holds as (update ${h} set ${col(h.heartbeatAt)} = ${at}
        where ${h.consumptionId} in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(consumptionIds)}::jsonb))
        returning 1)`;
}
