import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import type { GuestUserResponse, UserResponse } from "../auth/schemas";
import { trialActive } from "../credits/trial";
import { parseEntitlements } from "../entitlements/service";
import type { ProfilePatch, UserRow } from "./queries";
import * as queries from "./queries";

/**
 * plan, features and limits when the row carries them (GET /auth/me), and the organisation
 * with the caller's role there.
 */
function entitlementsOf(row: UserRow) {
  const org = typeof row.org === "string" ? JSON.parse(row.org) : row.org;
  if (row.entitlements === undefined || row.entitlements === null) {
    return { plan: row.plan, ...(org ? { org } : {}) };
  }
  const { plan, features, limits } = parseEntitlements(row.entitlements);
  return { plan, features, limits, ...(org ? { org } : {}) };
}

export function toUserResponse(deps: Deps, row: UserRow): UserResponse | GuestUserResponse {
  const credits = Number(row.credits ?? 0);
  if (row.is_guest) {
    return {
      id: row.id,
      is_guest: true,
      name: row.name,
      role: "user",
      credits,
      created_at: iso(row.created_at)!,
      ...entitlementsOf(row),
    };
  }
  const trialEnds = iso(row.trial_ends_at);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    company: row.company,
    phone: row.phone,
    country: row.country,
    language: row.language,
    role: row.role,
    status: row.status,
    is_guest: false,
    ...entitlementsOf(row),
    plan_expires_at: iso(row.plan_expires_at),
    trial_ends_at: trialEnds,
    // The plan in effect (entitlementsOf) when the row carries it, else the stored one.
    is_trial_active: trialActive(
      { ...row, plan: entitlementsOf(row).plan ?? row.plan },
      deps.clock.now(),
    ),
    referral_code: row.referral_code,
    credits,
    has_wechat: row.wechat_openid !== null,
    created_at: iso(row.created_at)!,
    email_verified: row.email_verified_at !== undefined && row.email_verified_at !== null,
  };
}

/**
 * One round trip: the user, their balance, their organisation and role, and its plan in effect
 * with features and limits.
 */
export function findUserWithCredits(deps: Deps, userId: string): Promise<UserRow | undefined> {
  return queries.findUserWithCredits(deps.db, { id: userId, now: nowIso(deps) });
}

export function updateProfile(
  deps: Deps,
  userId: string,
  patch: ProfilePatch,
): Promise<UserRow | undefined> {
  return queries.updateProfile(deps.db, { id: userId, patch, now: deps.clock.now() });
}
