import { sql } from "drizzle-orm";
import type { App } from "../../src/app";
import { queryRows } from "../../src/db/client";
import type { Deps } from "../../src/ports";
import { registerUser, type Session } from "./client";

/**
 * Puts a user's organisation (the plan belongs to it, ADR 0101) on `plan` until `expiresAt` (default: a year from the real now, far past any
 * clock a suite moves), as a paid plan or an admin would. Registration gives the pro trial,
 * which has neither the agent feature nor agent runs (docs/credits.md).
 */
export async function setPlan(
  deps: Deps,
  userId: string,
  plan: string,
  expiresAt: Date | null = new Date(Date.now() + 365 * 86_400_000),
) {
  await queryRows(
    deps.db,
    sql`update orgs set plan = ${plan},
          plan_expires_at = ${expiresAt ? expiresAt.toISOString() : null}::timestamptz
        where id = (select org_id from org_members where user_id = ${userId})`,
  );
}

/** A registered user on the business plan: the one with the agent. */
export async function registerBusinessUser(
  app: App,
  deps: Deps,
  overrides: Parameters<typeof registerUser>[1] = {},
): Promise<Session> {
  const user = await registerUser(app, overrides);
  await setPlan(deps, user.userId, "business");
  return user;
}
