import type { Deps, SessionAuthority } from "../../ports";
import { getUserStanding } from "../users/queries/sign-in";
import { isSessionEnded } from "./revocations";
import { verifyAccessToken } from "./tokens";

/** The account's role and status as stored now (requireAdmin: rights come from here only). */
function accountStanding(deps: Deps, userId: string) {
  return getUserStanding(deps.db, { id: userId });
}

/** What src/http/auth.ts asks of this module, as deps.sessions (see buildDeps). */
export const sessionAuthority: SessionAuthority = {
  verifyAccessToken,
  isSessionEnded,
  accountStanding,
};
