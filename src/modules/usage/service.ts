import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";

export interface UsageStats {
  start_date: string;
  end_date: string;
  total: number;
  by_event: Record<string, number>;
  days: { date: string; total: number; events: Record<string, number> }[];
}

/**
 * Per-day counts by event for one user. Dates are UTC days; the range is turned into
 * timestamps with SQL date casts so the (user_id, created_at) index serves the filter.
 */
export async function usageStats(
  deps: Deps,
  userId: string,
  range: { start: string; end: string },
): Promise<UsageStats> {
  const rows = await queryRows<{ day: string; event: string | null; count: number }>(
    deps.db,
    sql`with days as (
        select d::date as day
        from generate_series(${range.start}::date, ${range.end}::date, interval '1 day') d),
      counts as (
        select (created_at at time zone 'UTC')::date as day, event, count(*)::int as count
        from usage_logs
        where user_id = ${userId}
          and created_at >= (${range.start}::date)::timestamp at time zone 'UTC'
          and created_at < (${range.end}::date + 1)::timestamp at time zone 'UTC'
        group by 1, 2)
      select to_char(days.day, 'YYYY-MM-DD') as day, counts.event, coalesce(counts.count, 0) as count
      from days left join counts on counts.day = days.day
      order by days.day, counts.event`,
  );
  const days = new Map<string, { date: string; total: number; events: Record<string, number> }>();
  const byEvent: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    let day = days.get(row.day);
    if (!day) {
      day = { date: row.day, total: 0, events: {} };
      days.set(row.day, day);
    }
    if (row.event === null) continue;
    day.events[row.event] = row.count;
    day.total += row.count;
    byEvent[row.event] = (byEvent[row.event] ?? 0) + row.count;
    total += row.count;
  }
  return {
    start_date: range.start,
    end_date: range.end,
    total,
    by_event: byEvent,
    days: [...days.values()],
  };
}
