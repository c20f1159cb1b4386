import { sql } from "drizzle-orm";
import { inTimedBatches } from "../../../db/batches";
import { type Db, queryRows } from "../../../db/client";

const NO_ID = "00000000-0000-0000-0000-000000000000";

/**
 * Grants each running subscription the allowance of the month it is in (once per month: the
 * grant's ledger row is keyed `<subscription id>:<month>` by credit_ledger_source_once_key, as
 * subscription_grant_allowances keys it). Set-based, in keyset batches over subscriptions by id
 * (db/batches.ts), each batch ONE statement that finds its due subscriptions (running, and no
 * grant of this month yet: one probe of the once key each), raises each wallet by the sum of its
 * grants and writes every grant's lot and ledger row, the ledger's balance_after running over the
 * wallet's new balance in subscription order: every balance change is one statement with its
 * ledger rows (docs/ARCHITECTURE.md, money). A wallet a user's charge holds is waited for (one
 * charge: milliseconds); a user's charge waits on one batch at most.
 *
 * The per-user function called credit_expire_due_org first; this does not: the hourly
 * expireCredits runs just before it (jobs/schedules.ts order), and a lot past its expiry the
 * wallet still counts is written off by that task with its own ledger row either way.
 *
 * A second instance granting the same batch at once fails on the once key and rolls its batch
 * back: nothing is granted twice, and the next run finds nothing due.
 */
export async function grantRunningAllowances(
  db: Db,
  params: { now: string },
): Promise<{ grants: number; total: number }> {
  const now = sql`${params.now}::timestamptz`;
  const sum = { grants: 0, total: 0 };
  let after = NO_ID;
  await inTimedBatches(async (limit) => {
    const [row] = await queryRows<{
      scanned: number;
      last: string | null;
      grants: number;
      total: number;
    }>(
      db,
      sql`with month as (
          -- The month each running subscription is in: the last m with starts_at + m months
          -- <= now (month arithmetic as subscription_grant_allowances does it, end of month
          -- clamped).
          select s.id, s.org_id, s.user_id, s.monthly_credits as amount, s.plan_code, s.starts_at,
            s.ends_at, m.m
          from subscriptions s
          cross join lateral (
            select max(g) as m from generate_series(
              greatest(0, (extract(year from age(${now}, s.starts_at)) * 12
                + extract(month from age(${now}, s.starts_at)))::int - 1),
              (extract(year from age(${now}, s.starts_at)) * 12
                + extract(month from age(${now}, s.starts_at)))::int + 1) g
            where s.starts_at + make_interval(months => g) <= ${now}) m
          where s.cancelled_at is null and s.ends_at > ${now} and s.starts_at <= ${now}
            and s.monthly_credits > 0 and s.id > ${after}::uuid),
        picked as materialized (
          -- Only the ones without this month's grant count against the batch: a rerun in the
          -- month reads the running subscriptions in one statement and writes nothing.
          select m.*, m.id::text || ':' || m.m as source_id, gen_random_uuid() as lot_id
          from month m
          -- A lateral probe with a limit: as a \`not exists\` it was planned as an anti join
          -- filtering every granted row per subscription (157 s at 10,000 subscriptions).
          left join lateral (
            select true as done from credit_ledger l
            where l.kind = 'plan_allowance' and l.source_type = 'subscription'
              and l.source_id = m.id::text || ':' || m.m
              and l.kind <> all (array['consumption', 'admin_adjustment', 'expiry'])
            limit 1) granted on true
          where granted.done is null
          order by m.id limit ${limit}),
        due as materialized (
          select p.*, sum(p.amount) over (partition by p.org_id order by p.id) as running_sum,
            sum(p.amount) over (partition by p.org_id) as org_total
          from picked p),
        wallet as (
          insert into org_credits (org_id, balance, updated_at)
          select org_id, sum(amount), ${now} from due group by org_id order by org_id
          on conflict (org_id) do update
            set balance = org_credits.balance + excluded.balance, updated_at = excluded.updated_at
          returning org_credits.org_id, org_credits.balance as after),
        lots as (
          insert into credit_lots (id, org_id, user_id, kind, granted, remaining, expires_at,
            source_type, source_id, created_at)
          select d.lot_id, d.org_id, d.user_id, 'plan_allowance', d.amount, d.amount,
            least(d.starts_at + make_interval(months => d.m + 1), d.ends_at), 'subscription',
            d.source_id, ${now}
          from due d),
        ledger as (
          insert into credit_ledger (org_id, user_id, delta, balance_after, kind, source_type,
            source_id, actor_id, lots, note, created_at)
          select d.org_id, d.user_id, d.amount, w.after - d.org_total + d.running_sum,
            'plan_allowance',
            'subscription', d.source_id, null,
            jsonb_build_array(jsonb_build_object('lot_id', d.lot_id, 'amount', d.amount)),
            'Monthly allowance, ' || d.plan_code, ${now}
          from due d join wallet w on w.org_id = d.org_id
          returning delta)
      select (select count(*)::int from due) as scanned,
        (select max(id::text) from due) as last,
        (select count(*)::int from ledger) as grants,
        (select coalesce(sum(delta), 0)::int from ledger) as total`,
    );
    sum.grants += row?.grants ?? 0;
    sum.total += row?.total ?? 0;
    if (!row?.last) return 0;
    after = row.last;
    return row.scanned;
  });
  return sum;
}
