import type { Deps } from "../../ports";
import { countUsageByDay } from "./queries";

export interface UsageStats {
  start_date: string;
  end_date: string;
  total: number;
  by_event: Record<string, number>;
  days: { date: string; total: number; events: Record<string, number> }[];
}

/**
 * Per-day counts by event for one user. Dates are UTC days.
 */
export async function usageStats(
  deps: Deps,
  userId: string,
  range: { start: string; end: string },
): Promise<UsageStats> {
  const rows = await countUsageByDay(deps.db, { userId, ...range });
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
