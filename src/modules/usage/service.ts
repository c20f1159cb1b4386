import { forbidden, notFound } from "../../http/errors";
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
 * Per-day counts by event for one member, the caller unless `userId` names another (manager+,
 * a member of their organisation: 403 for a member asking, 404 outside the organisation).
 * Dates are UTC days. One round trip.
 */
export async function usageStats(
  deps: Deps,
  callerId: string,
  range: { start: string; end: string; userId?: string },
): Promise<UsageStats> {
  const rows = await countUsageByDay(deps.db, {
    callerId,
    userId: range.userId ?? callerId,
    start: range.start,
    end: range.end,
  });
  const access = rows[0]?.access ?? "ok";
  if (access === "forbidden") {
    throw forbidden("The manager role is required to see another member's usage");
  }
  if (access === "not_found") throw notFound("No such member in your organisation");
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
