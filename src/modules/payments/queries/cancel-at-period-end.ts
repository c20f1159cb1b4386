import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { subscriptions } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * CTE bodies for a holder's "cancel at period end" (credits' cancel, one statement): `running`
 * holds the user's running paid rows (monthly or yearly, not refunded, not ended at `at`: `id`,
 * `cancel_at_period_end`), `marked` the ids of those this statement marks (the first request's
 * time is kept, so a repeat marks none).
 */
export function cancelAtPeriodEndSql(params: { userId: string; at: SQL }): SQL {
  const s = alias(subscriptions, "s");
  const { at } = params;
  return sql`running as (
        select ${s.id}, ${s.cancelAtPeriodEnd} from ${subscriptions} ${s}
        where ${s.userId} = ${params.userId} and ${s.billingCycle} in ('monthly', 'yearly')
          and ${s.cancelledAt} is null and ${s.endsAt} > ${at}),
      marked as (
        update ${subscriptions} ${s} set ${col(s.cancelAtPeriodEnd)} = true,
          ${col(s.cancelRequestedAt)} = ${at}
        from running r where ${s.id} = r.id and not r.cancel_at_period_end
        returning ${s.id})`;
}
