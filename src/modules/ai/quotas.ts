import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { nowIso } from "../../lib/clock";

/**
 * Per-provider translation quotas (table `translation_quotas`: a day row and/or a month row per
 * provider, each `char_limit` characters per UTC period). A provider without enabled rows is
 * unlimited.
 */

/** The period's length and the start of the current period at `now`, in SQL. */
const periodLength = sql`(case q.period when 'day' then interval '1 day' else interval '1 month' end)`;
const currentStart = (now: string) =>
  sql`date_trunc(case q.period when 'day' then 'day' else 'month' end, ${now}::timestamptz, 'UTC')`;

/**
 * Reserves `chars` characters on every enabled quota row of the provider, all or nothing, in
 * one statement: the rows are locked (`for update`, in id order so concurrent reservations
 * queue instead of deadlocking); a row whose period has ended rolls over (used 0, start = the
 * current UTC day or month); the characters are added to every row only if every row stays
 * within its limit. A concurrent reservation waits for the lock and then sees the committed
 * usage, so parallel requests cannot overshoot. Returns whether it was granted.
 */
export async function reserveQuota(
  deps: Deps,
  providerId: string,
  chars: number,
  at: string = nowIso(deps),
): Promise<boolean> {
  const [row] = await queryRows<{ granted: boolean }>(
    deps.db,
    sql`with locked as (
        select q.id, q.char_limit,
          case when q.period_start + ${periodLength} <= ${at}::timestamptz
            then 0 else q.chars_used end as used,
          case when q.period_start + ${periodLength} <= ${at}::timestamptz
            then ${currentStart(at)} else q.period_start end as start
        from translation_quotas q
        where q.provider_id = ${providerId} and q.enabled
        order by q.id
        for update),
      verdict as (
        select coalesce(bool_and(used + ${chars}::int <= char_limit), true) as granted
        from locked),
      applied as (
        update translation_quotas t
        set chars_used = l.used + ${chars}::int, period_start = l.start,
          updated_at = ${at}::timestamptz
        from locked l, verdict v
        where t.id = l.id and v.granted
        returning t.id)
      select granted from verdict`,
  );
  return row?.granted ?? false;
}

/**
 * Gives reserved characters back after the provider call failed. Only rows still in the period
 * the reservation was made in (`period_start <= reservedAt`) are touched: after a rollover the
 * new period does not owe anything. Never below 0.
 */
export async function releaseQuota(
  deps: Deps,
  providerId: string,
  chars: number,
  reservedAt: string,
): Promise<void> {
  await queryRows(
    deps.db,
    sql`update translation_quotas
        set chars_used = greatest(chars_used - ${chars}::int, 0), updated_at = ${nowIso(deps)}::timestamptz
        where provider_id = ${providerId} and enabled and period_start <= ${reservedAt}::timestamptz`,
  );
}
