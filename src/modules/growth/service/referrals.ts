import { forbidden, notFound } from "../../../http/errors";
import type { Deps } from "../../../ports";
import { frontendUrl } from "../../account/links";
import { getReferralSummary, listReferralRewards } from "../queries";

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
  const user = await getReferralSummary(deps.db, { userId });
  if (!user) throw notFound("User not found");
  if (user.is_guest) throw forbidden("Register an account to invite others", "guest_not_allowed");
  const rows = await listReferralRewards(deps.db, { referrerId: userId, limit: REFERRALS_LISTED });
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
