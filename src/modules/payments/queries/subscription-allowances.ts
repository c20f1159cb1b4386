import { sql } from "drizzle-orm";
import { ASYNC_COMMIT, inTimedBatches, KEYSET_START, type KeysetCursor } from "../../../db/batches";
import { type Db, queryRowsPrepared } from "../../../db/client";

/**
 * Grants each running subscription the allowance of the month it is in (once per month: the
 * grant's ledger row is keyed `<subscription id>:<month>` by credit_ledger_source_once_key, as
 * subscription_grant_allowances keys it). Set-based, in keyset batches over the subscriptions
 * whose `allowance_due_at` has come (subscriptions_allowance_due_idx, ADR 0122: a run reads what
 * is due, none when nothing is), each batch ONE statement that:
 *   - reads the next due subscriptions, locks their wallets (`skip locked`: one a user's charge
 *     holds is the next run's, so neither waits on the other) and then those subscriptions
 *     (`skip locked`: one a refund is ending is the next run's), in the order a refund locks
 *     them (wallet, then subscription), so the two never deadlock;
 *   - grants each running one the month it is in unless that month's grant exists (one probe of
 *     the once key each: payment_fulfil grants month 0 itself), raising each wallet by the sum
 *     of its grants and writing every grant's lot and ledger row, the ledger's balance_after
 *     running over the wallet's new balance in subscription order: every balance change is one
 *     statement with its ledger rows (docs/ARCHITECTURE.md, money);
 *   - moves each one's `allowance_due_at` on: to the next month's start, its start if it has not
 *     started, 'infinity' once its period has no month left.
 *
 * The per-user function called credit_expire_due_org first; this does not: the hourly
 * expireCredits runs just before it (jobs/schedules.ts order), and a lot past its expiry the
 * wallet still counts is written off by that task with its own ledger row either way.
 *
 * Two instances never grant the same subscription: the second skips the rows the first locked,
 * and after its commit finds them no longer due.
 */
export async function grantRunningAllowances(
  db: Db,
  params: { now: string },
): Promise<{ grants: number; total: number }> {
  const now = sql`${params.now}::timestamptz`;
  const sum = { grants: 0, total: 0 };
  // Resumes after the (allowance_due_at, id) of the last subscription read.
  let after: KeysetCursor = KEYSET_START;
  await inTimedBatches(async (limit) => {
    // A named statement (its values all parameters): a run sends it hundreds of times, and its
    // planning (~2 ms) was a fixed part of every batch.
    const [row] = await queryRowsPrepared<{
      read: number;
      at: string | null;
      id: string | null;
      grants: number;
      total: number;
    }>(
      db,
      sql`with candidate as materialized (
          select s.id, s.org_id, s.allowance_due_at from subscriptions s
          where s.cancelled_at is null and s.monthly_credits > 0
            and s.allowance_due_at <= ${now}
            and (s.allowance_due_at, s.id) > (${after.at}::timestamptz, ${after.id}::uuid)
          order by s.allowance_due_at, s.id limit ${limit}),
        wallet_locked as materialized (
          select oc.org_id from org_credits oc
          where oc.org_id in (select org_id from candidate)
          order by oc.org_id for update of oc skip locked),
        picked as materialized (
          select s.id, s.org_id, s.user_id, s.monthly_credits as amount, s.plan_code, s.starts_at,
            s.ends_at
          from subscriptions s
          where s.id in (select id from candidate)
            and (s.org_id in (select org_id from wallet_locked)
              or not exists (select 1 from org_credits oc where oc.org_id = s.org_id))
            and s.cancelled_at is null and s.monthly_credits > 0 and s.allowance_due_at <= ${now}
          for no key update of s skip locked),
        month as materialized (
          -- The month each running subscription is in: the last m with starts_at + m months
          -- <= now (month arithmetic as subscription_grant_allowances does it, end of month
          -- clamped); null for one that has not started or has ended.
          select p.*, m.m
          from picked p
          left join lateral (
            select max(g) as m from generate_series(
              greatest(0, (extract(year from age(${now}, p.starts_at)) * 12
                + extract(month from age(${now}, p.starts_at)))::int - 1),
              (extract(year from age(${now}, p.starts_at)) * 12
                + extract(month from age(${now}, p.starts_at)))::int + 1) g
            where p.starts_at + make_interval(months => g) <= ${now}) m
            on p.starts_at <= ${now} and p.ends_at > ${now}),
        moved as (
          update subscriptions s set allowance_due_at = case
              when m.starts_at > ${now} then m.starts_at
              when m.m is null then 'infinity'::timestamptz
              when m.starts_at + make_interval(months => m.m + 1) >= m.ends_at
                then 'infinity'::timestamptz
              else m.starts_at + make_interval(months => m.m + 1) end
          from month m where s.id = m.id),
        due as materialized (
          select m.*, m.id::text || ':' || m.m as source_id, gen_random_uuid() as lot_id,
            sum(m.amount) over (partition by m.org_id order by m.id) as running_sum,
            sum(m.amount) over (partition by m.org_id) as org_total
          from month m
          -- A lateral probe with a limit: as a \`not exists\` it was planned as an anti join
          -- filtering every granted row per subscription (157 s at 10,000 subscriptions).
          left join lateral (
            select true as done from credit_ledger l
            where l.kind = 'plan_allowance' and l.source_type = 'subscription'
              and l.source_id = m.id::text || ':' || m.m
              and l.kind <> all (array['consumption', 'admin_adjustment', 'expiry'])
            limit 1) granted on true
          where m.m is not null and granted.done is null),
        wallet as (
          insert into org_credits (org_id, balance, updated_at)
          select org_id, sum(amount), ${now} from due group by org_id order by org_id
          on conflict (org_id) do update
            set balance = org_credits.balance + excluded.balance, updated_at = excluded.updated_at
          returning org_credits.org_id, org_credits.balance as after),
        after_of as materialized (
          -- Each wallet's balance looked up in one object, not joined: the planner takes a CTE
          -- for one row and joined the two in a nested loop, batch size squared.
          select jsonb_object_agg(org_id, after) as after from wallet),
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
          select d.org_id, d.user_id, d.amount,
            (w.after ->> d.org_id::text)::int - d.org_total + d.running_sum,
            'plan_allowance',
            'subscription', d.source_id, null,
            jsonb_build_array(jsonb_build_object('lot_id', d.lot_id, 'amount', d.amount)),
            'Monthly allowance, ' || d.plan_code, ${now}
          from due d cross join after_of w
          returning delta),
        last as (select allowance_due_at::text as at, id::text as id from candidate
          order by allowance_due_at desc, id desc limit 1)
      select (select count(*)::int from candidate) as read,
        (select at from last) as at, (select id from last) as id,
        (select count(*)::int from ledger) as grants,
        (select coalesce(sum(delta), 0)::int from ledger) as total,
        ${ASYNC_COMMIT}`,
    );
    sum.grants += row?.grants ?? 0;
    sum.total += row?.total ?? 0;
    if (!row?.at || !row.id) return 0;
    after = { at: row.at, id: row.id };
    return row.read;
  });
  return sum;
}
