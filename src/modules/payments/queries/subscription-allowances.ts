import { sql } from "drizzle-orm";
import { sumOverUserBatches } from "../../../db/batches";
import type { Db } from "../../../db/client";
import { subscriptions } from "../../../db/schema";

/**
 * Grants each running subscription the allowance of the month it is in (once per month,
 * subscription_grant_allowances). Each grant locks the user's balance row until its statement
 * commits, so users go in short timed batches (db/batches.ts, in id order, resuming after the
 * last one) and a user's own charge waits on one batch at most, never on the whole run.
 */
export function grantRunningAllowances(
  db: Db,
  params: { now: string },
): Promise<{ users: number; total: number }> {
  const now = sql`${params.now}::timestamptz`;
  const s = subscriptions;
  return sumOverUserBatches(
    db,
    (after, limit) => sql`select distinct ${s.userId} from ${s}
      where ${s.cancelledAt} is null and ${s.monthlyCredits} > 0 and ${s.startsAt} <= ${now}
        and ${s.endsAt} > ${now} and ${s.userId} > ${after}
      order by ${s.userId} limit ${limit}`,
    (userId) => sql`subscription_grant_allowances(${userId}, ${now})`,
  );
}
