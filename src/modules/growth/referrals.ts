import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { forbidden, notFound } from "../../http/errors";

/** The paid tier a referral reward gives a free user (the trial's tier). */
export const REFERRAL_PLAN = "pro";

/** `referral.reward_days` (system config), read inside the statement that uses it. */
const rewardDaysSql = sql`greatest(coalesce(
  (select (value #>> '{}')::int from system_config where key = 'referral.reward_days'), 7), 0)`;

/**
 * The first CTE of a registration with a referral code: the referrer (never a guest) and the
 * days each party earns. Empty when there is no referrer or the reward is 0 days.
 */
export function referralCte(referrerId: string | null): SQL {
  return sql`referral as (
      select r.id as referrer_id, d.days from users r, (select ${rewardDaysSql} as days) d
      where r.id = ${referrerId}::uuid and not r.is_guest and d.days > 0)`;
}

/** Days the new user's own plan end moves by: their trial is extended by the reward. */
export const referralBonusInterval = sql`make_interval(days => coalesce(
  (select days from referral), 0))`;

/**
 * CTEs after the new user's insert (`newUserCte`, whose plan_expires_at already carries the
 * bonus): the reward row (unique per referred user, so a user is rewarded once), the referrer's
 * extension (from max(now, their current end) when on a paid plan or trial; `pro` from now when
 * free; an unlimited paid plan stays unlimited), a `referral` subscription row for each party
 * and the referrer's notification. All in the registration statement: all or nothing.
 */
export function referralRewardCtes(newUserCte: string, now: string): SQL {
  const newUser = sql.raw(newUserCte);
  const at = sql`${now}::timestamptz`;
  const planId = (code: SQL) => sql`(select p.id from subscription_plans p where p.code = ${code})`;
  return sql`reward as (
      insert into referral_rewards (referrer_id, referred_id, days, created_at)
      select referral.referrer_id, n.id, referral.days, ${at}
      from referral, ${newUser} n where referral.referrer_id <> n.id
      on conflict (referred_id) do nothing
      returning referrer_id, referred_id, days),
    referrer_plan as (
      update users u set
        plan = case when u.plan = 'free' then ${REFERRAL_PLAN} else u.plan end,
        plan_expires_at = case
          when u.plan = 'free' then ${at} + make_interval(days => reward.days)
          when u.plan_expires_at is null then null
          else greatest(${at}, u.plan_expires_at) + make_interval(days => reward.days) end,
        updated_at = ${at}
      from reward where u.id = reward.referrer_id
      returning u.id, u.plan, u.plan_expires_at, reward.days),
    reward_subscriptions as (
      insert into subscriptions (user_id, plan_id, plan_code, billing_cycle, monthly_credits,
                                 starts_at, ends_at, created_at)
      select r.id, ${planId(sql`r.plan`)}, r.plan, 'referral', 0,
             coalesce(r.plan_expires_at - make_interval(days => r.days), ${at}),
             coalesce(r.plan_expires_at, ${at} + make_interval(days => r.days)), ${at}
      from referrer_plan r
      union all
      select n.id, ${planId(sql`n.plan`)}, n.plan, 'referral', 0,
             n.plan_expires_at - make_interval(days => reward.days), n.plan_expires_at, ${at}
      from ${newUser} n join reward on reward.referred_id = n.id),
    reward_notice as (
      insert into notifications (user_id, kind, title, body, data, dedupe_key, created_at)
      select referrer_id, 'referral_rewarded', 'Referral reward: ' || days || ' days of Pro',
             'Someone registered with your referral code. You both get ' || days
               || ' days of the Pro plan.',
             jsonb_build_object('referred_id', referred_id, 'days', days),
             'referral:' || referred_id, ${at}
      from reward
      on conflict (user_id, dedupe_key) do nothing)`;
}

/** `se***@example.com`: enough for the referrer to recognise a friend, not to harvest emails. */
export function maskEmail(email: string | null): string {
  if (!email) return "***";
  const at = email.indexOf("@");
  if (at < 0) return `${email.slice(0, 2)}***`;
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}***${email.slice(at)}`;
}

/** At most this many referrals are listed (newest first); the totals cover them all. */
export const REFERRALS_LISTED = 500;

export async function getReferrals(deps: Deps, userId: string, requestOrigin: string) {
  const [user] = await queryRows<{
    referral_code: string;
    is_guest: boolean;
    reward_days: number;
    days_as_referrer: number;
    days_as_referred: number;
    referral_count: number;
  }>(
    deps.db,
    sql`select u.referral_code, u.is_guest, ${rewardDaysSql} as reward_days,
          (select coalesce(sum(days), 0)::int from referral_rewards where referrer_id = u.id)
            as days_as_referrer,
          (select coalesce(sum(days), 0)::int from referral_rewards where referred_id = u.id)
            as days_as_referred,
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
  const base = (deps.config.PUBLIC_BASE_URL || requestOrigin).replace(/\/+$/, "");
  return {
    code: user.referral_code,
    link: `${base}/register?ref=${encodeURIComponent(user.referral_code)}`,
    reward_days: user.reward_days,
    referrals: rows.map((r) => ({
      user_id: r.user_id,
      name: maskEmail(r.email),
      rewarded_at: new Date(r.rewarded_at).toISOString(),
      days: r.days,
    })),
    referral_count: user.referral_count,
    total_days_earned: user.days_as_referrer + user.days_as_referred,
  };
}
