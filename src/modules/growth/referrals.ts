import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { forbidden, notFound } from "../../http/errors";
import { frontendUrl } from "../account/links";

/** The paid tier a referral reward gives a free user (the trial's tier). */
const REFERRAL_PLAN = "pro";

/** `referral.reward_days` (system config), read inside the statement that uses it. */
const rewardDaysSql = sql`greatest(coalesce(
  (select (value #>> '{}')::int from system_config where key = 'referral.reward_days'), 7), 0)`;

/** `referral.monthly_cap` (system config): rewards one referrer can earn per calendar month. */
const monthlyCapSql = sql`greatest(coalesce(
  (select (value #>> '{}')::int from system_config where key = 'referral.monthly_cap'), 5), 0)`;

/**
 * Whether the users row `alias` earns the referred party's reward when it verifies its address
 * for the first time: referred by an active non-guest account other than itself, a reward of
 * more than 0 days, and never rewarded before. The same test in the SET fragment and in the
 * CTEs, evaluated on the statement's one snapshot, so both sides always agree.
 */
function referredEligible(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`(${a}.referred_by is not null and ${a}.referred_by <> ${a}.id
    and exists (select 1 from users r
                where r.id = ${a}.referred_by and not r.is_guest and r.status = 'active')
    and not exists (select 1 from referral_rewards x where x.referred_id = ${a}.id)
    and ${rewardDaysSql} > 0)`;
}

/** A plan end moved by `days`: from max(now, end) on a paid plan or trial; from now when free. */
function extendedEnd(plan: SQL, ends: SQL, days: SQL, at: SQL): SQL {
  return sql`case when ${plan} = 'free' then ${at} + make_interval(days => ${days})
    when ${ends} is null then null
    else greatest(${at}, ${ends}) + make_interval(days => ${days}) end`;
}

/**
 * The referred party's reward, as SET assignments for the verification's own UPDATE of the
 * users row being verified (alias `alias`): `plan`, `plan_expires_at`. PostgreSQL applies only
 * one update per row in one statement, so the row the verification updates cannot be updated
 * again by referralRewardOnVerification's CTEs; its reward has to ride on that UPDATE.
 * Applies only while the row is unverified (`email_verified_at is null` before the update).
 *
 *   update users u set email_verified_at = $now, ..., ${referredRewardSet("u", now)} ...
 */
export function referredRewardSet(alias: string, now: string): SQL {
  const a = sql.raw(alias);
  const at = sql`${now}::timestamptz`;
  const applies = sql`(${a}.email_verified_at is null and ${referredEligible(alias)})`;
  return sql`plan = case when ${applies} and ${a}.plan = 'free' then ${REFERRAL_PLAN}
      else ${a}.plan end,
    plan_expires_at = case when ${applies}
      then ${extendedEnd(sql`${a}.plan`, sql`${a}.plan_expires_at`, rewardDaysSql, at)}
      else ${a}.plan_expires_at end`;
}

/**
 * The referral reward, earned when the referred account verifies its address (a registration
 * only records `referred_by`). CTEs to append to the verification statement (comma-separated,
 * no leading comma); `verifiedCte` returns the users rows just verified for the first time
 * (id, referred_by, plan, plan_expires_at, after the update, which applied referredRewardSet).
 *
 * - the friend's `referral` subscription row for the days referredRewardSet gave them;
 * - the referrer's monthly tally: one notification per referrer and month
 *   (`referral_month:YYYY-MM`), inserted or, below `referral.monthly_cap`, counted up by an
 *   INSERT ... ON CONFLICT DO UPDATE. That upsert locks the tally row and reads its newest
 *   version, so concurrent verifications for one referrer are serialised there and the cap
 *   holds (a lock taken inside the statement would not do: the statement's snapshot was taken
 *   before it waited, so a count read after it would miss the rewards that just committed);
 * - only when the tally counted it: the reward row (unique per referred user), the referrer's
 *   plan extension (from max(now, their end) on a paid plan or trial, `pro` from now when free,
 *   an unlimited paid plan stays so) and their `referral` subscription row.
 * Past the cap the friend still gets their days; the referrer gets nothing more that month.
 */
export function referralRewardOnVerification(verifiedCte: string, now: string): SQL {
  const verified = sql.raw(verifiedCte);
  const at = sql`${now}::timestamptz`;
  const planId = (code: SQL) =>
    sql`(select sp.id from subscription_plans sp where sp.code = ${code})`;
  const month = sql`to_char(${at} at time zone 'UTC', 'YYYY-MM')`;
  const tallyBody = (count: SQL, cap: SQL, days: SQL) =>
    sql`'A friend you invited verified their account: you both get ' || ${days}
      || ' days of the Pro plan (' || ${count} || ' of ' || ${cap}
      || ' referral rewards this month).'`;
  return sql`referral_pair as (
      select v.id as referred_id, v.referred_by as referrer_id, v.plan, v.plan_expires_at,
        ${rewardDaysSql} as days, ${monthlyCapSql} as cap, ${month} as month
      from ${verified} v where ${referredEligible("v")}),
    referred_subscription as (
      insert into subscriptions (user_id, plan_id, plan_code, billing_cycle, monthly_credits,
                                 starts_at, ends_at, created_at)
      select p.referred_id, ${planId(sql`p.plan`)}, p.plan, 'referral', 0,
             coalesce(p.plan_expires_at - make_interval(days => p.days), ${at}),
             coalesce(p.plan_expires_at, ${at} + make_interval(days => p.days)), ${at}
      from referral_pair p),
    referral_tally as (
      insert into notifications (user_id, kind, title, body, data, dedupe_key, created_at)
      select p.referrer_id, 'referral_rewarded', 'Referral reward: ' || p.days || ' days of Pro',
             ${tallyBody(sql`1`, sql`p.cap`, sql`p.days`)},
             jsonb_build_object('referred_id', p.referred_id, 'days', p.days, 'month', p.month,
                                'count', 1, 'cap', p.cap),
             'referral_month:' || p.month, ${at}
      from referral_pair p where p.cap > 0
      on conflict (user_id, dedupe_key) do update set
        data = excluded.data || jsonb_build_object(
          'count', (notifications.data ->> 'count')::int + 1),
        title = excluded.title,
        body = ${tallyBody(
          sql`((notifications.data ->> 'count')::int + 1)`,
          sql`(excluded.data ->> 'cap')`,
          sql`(excluded.data ->> 'days')`,
        )},
        is_read = false, read_at = null, created_at = excluded.created_at,
        push_state = 'pending', push_attempts = 0, push_claimed_until = null, pushed_at = null,
        push_error = null
      where coalesce((notifications.data ->> 'count')::int, 0)
            < (excluded.data ->> 'cap')::int
      returning user_id as referrer_id, (data ->> 'referred_id')::uuid as referred_id,
        (data ->> 'days')::int as days),
    referral_reward as (
      insert into referral_rewards (referrer_id, referred_id, days, created_at)
      select referrer_id, referred_id, days, ${at} from referral_tally
      on conflict (referred_id) do nothing
      returning referrer_id, referred_id, days),
    referrer_plan as (
      update users u set
        plan = case when u.plan = 'free' then ${REFERRAL_PLAN} else u.plan end,
        plan_expires_at = ${extendedEnd(sql`u.plan`, sql`u.plan_expires_at`, sql`w.days`, at)},
        updated_at = ${at}
      from referral_reward w where u.id = w.referrer_id
      returning u.id, u.plan, u.plan_expires_at, w.days),
    referrer_subscription as (
      insert into subscriptions (user_id, plan_id, plan_code, billing_cycle, monthly_credits,
                                 starts_at, ends_at, created_at)
      select r.id, ${planId(sql`r.plan`)}, r.plan, 'referral', 0,
             coalesce(r.plan_expires_at - make_interval(days => r.days), ${at}),
             coalesce(r.plan_expires_at, ${at} + make_interval(days => r.days)), ${at}
      from referrer_plan r)`;
}

/** `se***@example.com`: enough for the referrer to recognise a friend, not to harvest emails. */
function maskEmail(email: string | null): string {
  if (!email) return "***";
  const at = email.indexOf("@");
  if (at < 0) return `${email.slice(0, 2)}***`;
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}***${email.slice(at)}`;
}

/** At most this many referrals are listed (newest first); the totals cover them all. */
const REFERRALS_LISTED = 500;

/**
 * The caller's code, the link to share (FRONTEND_URL, else PUBLIC_BASE_URL, else
 * http://localhost:PORT; never the request's Host), the referrals that earned them a reward,
 * and the days earned in all (every `referral` subscription row: as referrer and as friend).
 */
export async function getReferrals(deps: Deps, userId: string) {
  const [user] = await queryRows<{
    referral_code: string;
    is_guest: boolean;
    reward_days: number;
    total_days: number;
    referral_count: number;
  }>(
    deps.db,
    sql`select u.referral_code, u.is_guest, ${rewardDaysSql} as reward_days,
          (select coalesce(round(sum(extract(epoch from ends_at - starts_at)) / 86400), 0)::int
           from subscriptions where user_id = u.id and billing_cycle = 'referral') as total_days,
          (select count(*)::int from referral_rewards where referrer_id = u.id) as referral_count
        from users u where u.id = ${userId}`,
  );
  if (!user) throw notFound("User not found");
  if (user.is_guest) throw forbidden("Register an account to invite others");
  const rows = await queryRows<{
    user_id: string;
    email: string | null;
    rewarded_at: Date;
    days: number;
  }>(
    deps.db,
    sql`select r.referred_id as user_id, u.email, r.created_at as rewarded_at, r.days
        from referral_rewards r join users u on u.id = r.referred_id
        where r.referrer_id = ${userId}
        order by r.created_at desc, r.id desc limit ${REFERRALS_LISTED}`,
  );
  return {
    code: user.referral_code,
    link: frontendUrl(deps, `/register?ref=${encodeURIComponent(user.referral_code)}`),
    reward_days: user.reward_days,
    referrals: rows.map((r) => ({
      user_id: r.user_id,
      name: maskEmail(r.email),
      rewarded_at: new Date(r.rewarded_at).toISOString(),
      days: r.days,
    })),
    referral_count: user.referral_count,
    total_days_earned: user.total_days,
  };
}
