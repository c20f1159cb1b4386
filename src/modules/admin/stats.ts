import type { Deps } from "../../ports";
import { adminStatsJson } from "./queries";

interface AdminStatsDay {
  date: string;
  new_users: number;
  /** Paid orders' amount net of refunds, minor units per currency (by order creation day). */
  revenue: Record<string, number>;
  credits_granted: number;
  credits_consumed: number;
  ai_calls: number;
}

export interface AdminStats {
  start_date: string;
  end_date: string;
  totals: {
    users: number;
    guests: number;
    paid_plan_users: number;
    new_users: number;
    revenue: Record<string, number>;
    credits_granted: number;
    credits_consumed: number;
    credits_expired: number;
    credits_outstanding: number;
    ai_calls: number;
    ai_calls_by_operation: Record<string, number>;
  };
  by_day: AdminStatsDay[];
  /** Per provider, from ai_calls (issue #24 item 7). */
  ai_providers: {
    provider: string;
    calls: number;
    failures: number;
    failure_rate: number;
    tokens_in: number;
    tokens_out: number;
    credits: number;
    avg_latency_ms: number;
  }[];
}

/**
 * The admin dashboard's figures for a UTC day range, in one statement: users (all time, and new
 * per day), revenue (paid orders net of refunds, per currency, by order day, as the payments
 * report counts it), credits granted, consumed (net of refunds) and expired per day from the
 * ledger, AI calls (billable operations' usage-log rows) per day and per operation, and each
 * AI provider's attempts (ai_calls: calls, failure rate, tokens, credits, mean latency). Each
 * source is aggregated once over its created_at index, then joined to the day series.
 */
export async function adminStats(
  deps: Deps,
  range: { start: string; end: string },
): Promise<AdminStats> {
  const value = await adminStatsJson(deps.db, range);
  const stats = (typeof value === "string" ? JSON.parse(value) : value) as AdminStats;
  return stats;
}
