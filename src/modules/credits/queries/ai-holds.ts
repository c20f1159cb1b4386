import { type SQL, sql } from "drizzle-orm";
import { defineCte } from "../../../db/cte";
import { creditConsumptions, creditHolds } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Fragments for the statement that settles a billed AI operation's hold (ai/billing.ts): the
 * hold goes (its credits stay spent) in the same statement that writes the usage log.
 */

/** The CTE settleHoldCte defines: the hold it deleted, if any. */
export const settledHold = defineCte("settled", ["consumption_id"]);

/** CTE `settled`: the hold of `consumptionId` deleted (no row when it was already gone). */
export function settleHoldCte(consumptionId: string | null | undefined): SQL {
  const h = creditHolds;
  return settledHold.as(sql`
    delete from ${h} where ${h.consumptionId} = ${consumptionId}::uuid
    returning ${col(h.consumptionId)}`);
}

/**
 * Whether the consumption was refunded (the sweep ended its hold first), as a boolean SQL.
 * Read with FOR UPDATE: a sweep that committed while the settling statement waited on the hold
 * is after the statement's snapshot, and a plain read would still see the charge standing;
 * the locking read sees the row as committed last.
 */
export function consumptionRefundedSql(consumptionId: string | null | undefined): SQL {
  const c = creditConsumptions;
  return sql`coalesce((
    select ${c.status} = 'refunded' from ${c} where ${c.id} = ${consumptionId}::uuid for update
  ), false)`;
}
