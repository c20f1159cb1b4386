import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { usageLogs } from "../../../db/schema";
import type { DbRow } from "../../../db/sql";

/**
 * Per-day counts by event for one user over UTC days `start`..`end` (every day present, with a
 * null event when it has none). The range becomes timestamps by SQL date casts so the
 * (user_id, created_at) index serves the filter.
 */
export function countUsageByDay(
  db: Db,
  params: { userId: string; start: string; end: string },
): Promise<{ day: string; event: DbRow<typeof usageLogs>["event"] | null; count: number }[]> {
  const l = usageLogs;
  return queryRows(
    db,
    sql`with days as (
        select d::date as day
        from generate_series(${params.start}::date, ${params.end}::date, interval '1 day') d),
      counts as (
        select (${l.createdAt} at time zone 'UTC')::date as day, ${l.event}, count(*)::int as count
        from ${l}
        where ${l.userId} = ${params.userId}
          and ${l.createdAt} >= (${params.start}::date)::timestamp at time zone 'UTC'
          and ${l.createdAt} < (${params.end}::date + 1)::timestamp at time zone 'UTC'
        group by 1, 2)
      select to_char(days.day, 'YYYY-MM-DD') as day, counts.event, coalesce(counts.count, 0) as count
      from days left join counts on counts.day = days.day
      order by days.day, counts.event`,
  );
}
