import { type SQL, sql } from "drizzle-orm";

/**
 * Whether an organisation (a user's, issue #22) is on its free trial, the one rule `/auth/me` (`is_trial_active`),
 * `/credits/balance` and `/credits/subscription` (`on_trial`) answer with (ADR 0091).
 *
 * Registration starts a trial by setting plan_expires_at and trial_ends_at to the same instant.
 * The user is on it while that instant is ahead, the plan is a paid one, and the plan still ends
 * when the trial does: a paid upgrade or a granted extension during the trial moves
 * plan_expires_at past trial_ends_at, and from then on the plan is paid (or granted), not a trial.
 */
export function trialActive(
  row: {
    plan: string;
    plan_expires_at: string | Date | null;
    trial_ends_at: string | Date | null;
  },
  now: Date,
): boolean {
  if (row.plan === "free" || row.trial_ends_at === null || row.plan_expires_at === null) {
    return false;
  }
  const trialEnds = new Date(row.trial_ends_at).getTime();
  return trialEnds > now.getTime() && new Date(row.plan_expires_at).getTime() === trialEnds;
}

/**
 * trialActive in SQL, for a statement that decides on it (cancelling: 409 on a trial), over an
 * orgs row's columns. Keep the two the same rule.
 */
export function trialActiveSql(
  u: { plan: SQL | unknown; planExpiresAt: SQL | unknown; trialEndsAt: SQL | unknown },
  at: SQL,
): SQL {
  return sql`(${u.plan} <> 'free' and ${u.trialEndsAt} > ${at}
    and ${u.planExpiresAt} = ${u.trialEndsAt})`;
}
