import { type SQL, sql } from "drizzle-orm";
import { creditConsumptions } from "../../../db/schema";

/**
 * The credits a `credit_refund` call gave back, as an int expression (for /metrics): the
 * consumption's cost when the call applied, else 0. The cost is read unlocked; the refund does
 * not change it. `applied` is the call's `applied` column, `consumption` its consumption id.
 */
export function refundedCredits(applied: SQL, consumption: SQL): SQL {
  return sql`(case when ${applied}
    then (select ${creditConsumptions.cost} from ${creditConsumptions}
          where ${creditConsumptions.id} = ${consumption}) else 0 end)::int`;
}
