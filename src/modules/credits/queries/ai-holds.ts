import { type SQL, sql } from "drizzle-orm";
import { creditConsumptions, creditHolds } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Fragments for the statement that settles a billed AI operation's hold (ai/billing.ts): the
 * hold goes (its credits stay spent) in the same statement that writes the usage log.
 */

/** CTE `settled`: the hold of `consumptionId` deleted (no row when it was already gone). */
export function settleHoldCte(consumptionId: string | null | undefined): SQL {
  const h = creditHolds;
  return sql`settled as (
    delete from ${h} where ${h.consumptionId} = ${consumptionId}::uuid
    returning ${col(h.consumptionId)})`;
}

/** Whether the consumption was refunded (the sweep ended its hold first), as a boolean SQL. */
export function consumptionRefundedSql(consumptionId: string | null | undefined): SQL {
  const c = creditConsumptions;
  return sql`exists (
    select 1 from ${c} where ${c.id} = ${consumptionId}::uuid and ${c.status} = 'refunded')`;
}
