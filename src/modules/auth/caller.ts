import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { optionalAuth } from "../../http/auth";
import { CSRF_COOKIE } from "../../http/cookies";
import { CSRF_HEADER, verifyCsrfToken } from "../../http/csrf";
import type { AppEnv } from "../../http/env";

/**
 * The caller's own live session on a public route that treats a signed-in caller differently
 * (register and login with a guest's token, ADR 0062; a verification link clicked in the
 * session that asked for it, ADR 0084): its access token as a Bearer header, or the
 * access_token cookie together with a valid X-CSRF-Token (as on C routes: a cookie alone could
 * be ridden cross-site). Anything else (no token, an invalid or ended one, a cookie without the
 * CSRF proof) is no caller.
 */
export async function callerSession(c: Context<AppEnv>) {
  const auth = await optionalAuth(c);
  if (!auth) return undefined;
  const [scheme, token] = (c.req.header("Authorization") ?? "").split(" ");
  const viaBearer = scheme?.toLowerCase() === "bearer" && Boolean(token);
  if (!viaBearer) {
    const header = c.req.header(CSRF_HEADER);
    const cookie = getCookie(c, CSRF_COOKIE);
    if (!header || header !== cookie) return undefined;
    if (!(await verifyCsrfToken(c.get("deps"), auth, header))) return undefined;
  }
  return { userId: auth.userId, sessionId: auth.sessionId, isGuest: auth.isGuest };
}
