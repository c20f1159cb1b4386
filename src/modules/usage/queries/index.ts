import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { usageLogs } from "../../../db/schema";
import { memberFiguresAccessSql } from "../../../db/scope";
import type { DbRow } from "../../../db/sql";

/** Whether the caller may see the member's usage (scope.ts); 'ok' for themself. */
export type UsageAccess = "ok" | "forbidden" | "not_found";

/**
 * Per-day counts by event for the member `userId` over UTC days `start`..`end` (every day
 * present, with a null event when it has none), asked by `callerId`; each row carries whether
 * the caller may see them (scope.ts: themself, or manager+ for a member of their organisation),
 * and the counts are none unless 'ok'. The range becomes timestamps by SQL date casts so the
 * (user_id, created_at) index serves the filter.
 */
export function countUsageByDay(
  db: Db,
  params: { callerId: string; userId: string; start: string; end: string },
): Promise<
  {
    access: UsageAccess;
    day: string;
    event: DbRow<typeof usageLogs>["event"] | null;
    count: number;
  }[]
> {
  const l = usageLogs;
  const access =
    params.callerId === params.userId
      ? sql`'ok'`
      : sql`coalesce(${memberFiguresAccessSql(params.callerId, params.userId)}, 'not_found')`;
  return queryRows(
    db,
    sql`with verdict as (select ${access} as access),
      days as (
        select d::date as day
        from generate_series(${params.start}::date, ${params.end}::date, interval '1 day') d),
      counts as (
        select (${l.createdAt} at time zone 'UTC')::date as day, ${l.event}, count(*)::int as count
        from ${l}
        where ${l.userId} = ${params.userId} and (select access from verdict) = 'ok'
          and ${l.createdAt} >= (${params.start}::date)::timestamp at time zone 'UTC'
          and ${l.createdAt} < (${params.end}::date + 1)::timestamp at time zone 'UTC'
        group by 1, 2)
      select (select access from verdict) as access, to_char(days.day, 'YYYY-MM-DD') as day,
        counts.event, coalesce(counts.count, 0) as count
      from days left join counts on counts.day = days.day
      order by days.day, counts.event`,
  );
}
