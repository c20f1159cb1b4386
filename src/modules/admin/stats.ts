import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { CREDIT_OPERATIONS } from "../credits/service";

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
}

const operations = sql.raw(`(${CREDIT_OPERATIONS.map((op) => `'${op}'`).join(", ")})`);

/**
 * The admin dashboard's figures for a UTC day range, in one statement: users (all time, and new
 * per day), revenue (paid orders net of refunds, per currency, by order day, as the payments
 * report counts it), credits granted, consumed (net of refunds) and expired per day from the
 * ledger, and AI calls (billable operations' usage-log rows) per day and per operation. Each
 * source is aggregated once over its created_at index, then joined to the day series.
 */
export async function adminStats(
  deps: Deps,
  range: { start: string; end: string },
): Promise<AdminStats> {
  const from = sql`(${range.start}::date)::timestamp at time zone 'UTC'`;
  const until = sql`(${range.end}::date + 1)::timestamp at time zone 'UTC'`;
  const dayOf = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date`);
  const [row] = await queryRows<{ stats: AdminStats }>(
    deps.db,
    sql`with days as (
        select d::date as day
        from generate_series(${range.start}::date, ${range.end}::date, interval '1 day') d),
      signups as (
        select ${dayOf("created_at")} as day, count(*)::int as n from users
        where created_at >= ${from} and created_at < ${until} and not is_guest group by 1),
      revenue as (
        select day, jsonb_object_agg(currency, amount) as by_currency from (
          select ${dayOf("created_at")} as day, currency,
            sum(amount - refunded_amount)::bigint as amount
          from payment_transactions
          where status in ('paid', 'refunded', 'partially_refunded')
            and created_at >= ${from} and created_at < ${until}
          group by 1, 2) r group by day),
      ledger as (
        select ${dayOf("created_at")} as day,
          coalesce(sum(delta) filter (where delta > 0 and kind <> 'refund'), 0)::bigint as granted,
          coalesce(-sum(delta) filter (where kind in ('consumption', 'refund')), 0)::bigint as consumed,
          coalesce(-sum(delta) filter (where kind = 'expiry'), 0)::bigint as expired
        from credit_ledger where created_at >= ${from} and created_at < ${until} group by 1),
      calls as (
        select ${dayOf("created_at")} as day, event, count(*)::int as n from usage_logs
        where event in ${operations} and created_at >= ${from} and created_at < ${until}
        group by 1, 2),
      per_day as (
        select d.day, coalesce(s.n, 0) as new_users, coalesce(r.by_currency, '{}'::jsonb) as revenue,
          coalesce(l.granted, 0) as granted, coalesce(l.consumed, 0) as consumed,
          coalesce(l.expired, 0) as expired,
          coalesce((select sum(n) from calls c where c.day = d.day), 0)::int as ai_calls
        from days d left join signups s using (day) left join revenue r using (day)
          left join ledger l using (day))
      select jsonb_build_object(
        'start_date', ${range.start}::text, 'end_date', ${range.end}::text,
        'totals', jsonb_build_object(
          'users', (select count(*) from users where not is_guest),
          'guests', (select count(*) from users where is_guest),
          'paid_plan_users', (select count(*) from users where plan <> 'free' and not is_guest),
          'new_users', (select coalesce(sum(new_users), 0) from per_day),
          'revenue', coalesce((select jsonb_object_agg(currency, amount) from (
              select key as currency, sum(value::bigint) as amount
              from per_day, jsonb_each_text(revenue) group by key) t), '{}'::jsonb),
          'credits_granted', (select coalesce(sum(granted), 0) from per_day),
          'credits_consumed', (select coalesce(sum(consumed), 0) from per_day),
          'credits_expired', (select coalesce(sum(expired), 0) from per_day),
          'credits_outstanding', (select coalesce(sum(balance), 0) from user_credits),
          'ai_calls', (select coalesce(sum(n), 0) from calls),
          'ai_calls_by_operation', coalesce((select jsonb_object_agg(event, n) from (
              select event, sum(n)::int as n from calls group by event) t), '{}'::jsonb)),
        'by_day', coalesce((select jsonb_agg(jsonb_build_object(
            'date', to_char(day, 'YYYY-MM-DD'), 'new_users', new_users, 'revenue', revenue,
            'credits_granted', granted, 'credits_consumed', consumed, 'ai_calls', ai_calls)
            order by day) from per_day), '[]'::jsonb)) as stats`,
  );
  const stats = (
    typeof row!.stats === "string" ? JSON.parse(row!.stats) : row!.stats
  ) as AdminStats;
  return stats;
}
