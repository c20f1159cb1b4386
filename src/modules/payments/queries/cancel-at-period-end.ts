import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { subscriptions } from "../../../db/schema";
import { inCallerOrg } from "../../../db/scope";
import { col } from "../../../db/sql";

/**
 * CTE bodies for a holder's "cancel at period end" (credits' cancel, one statement): `running`
 * holds the running paid rows of the user's organisation, whoever paid them (monthly or yearly, not refunded, not ended at `at`: `id`,
 * `cancel_at_period_end`), `marked` the ids of those this statement marks (the first request's
 * time is kept, so a repeat marks none).
 */
export function cancelAtPeriodEndSql(params: { userId: string; at: SQL }): SQL {
  const s = alias(subscriptions, "s");
  const { at } = params;
  return sql`running as (
        select ${s.id}, ${s.cancelAtPeriodEnd} from ${subscriptions} ${s}
        where ${inCallerOrg(s, params.userId)} and ${s.billingCycle} in ('monthly', 'yearly')
          and ${s.cancelledAt} is null and ${s.endsAt} > ${at}),
      marked as (
        update ${subscriptions} ${s} set ${col(s.cancelAtPeriodEnd)} = true,
          ${col(s.cancelRequestedAt)} = ${at}
        from running r where ${s.id} = r.id and not r.cancel_at_period_end
        returning ${s.id})`;
}
