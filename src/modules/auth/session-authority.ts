import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import type { Deps } from "../../deps";
import type { SessionAuthority } from "../../http/auth";
import { isSessionEnded } from "./revocations";
import { verifyAccessToken } from "./tokens";

/** The account's role and status as stored now (requireAdmin: rights come from here only). */
async function accountStanding(deps: Deps, userId: string) {
  const [user] = await deps.db
    .select({ role: users.role, status: users.status })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

/** What src/http/auth.ts asks of this module, as deps.sessions (see buildDeps). */
export const sessionAuthority: SessionAuthority = {
  verifyAccessToken,
  isSessionEnded,
  accountStanding,
};
