import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AuthContext } from "../ports";
import { ACCESS_COOKIE } from "./cookies";
import { isWriteMethod, verifyCsrf } from "./csrf";
import type { AppEnv } from "./env";
import { forbidden, unauthorized } from "./errors";
import { markMiddleware } from "./route-traits";

function bearerToken(c: Context): string | undefined {
  const header = c.req.header("Authorization");
  if (!header) return undefined;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token.trim() : undefined;
}

/**
 * Verifies the access token (Bearer header first, then the cookie) and that its session has not
 * ended; no database round trip of its own (the set of ended sessions is polled per instance,
 * modules/auth/revocations.ts, reached through deps.sessions).
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async function requireAuth(c, next) {
  const bearer = bearerToken(c);
  const token = bearer ?? getCookie(c, ACCESS_COOKIE);
  if (!token) throw unauthorized();
  const deps = c.get("deps");
  const verified = deps.sessions.verifyAccessToken(deps, token);
  const auth = verified instanceof Promise ? await verified : verified;
  if (!auth) throw unauthorized("Invalid or expired token");
  // A plain boolean while the ended-session set is fresh: no promise on the hot path.
  const ended = deps.sessions.isSessionEnded(deps, auth.sessionId);
  if (ended === true || (ended !== false && (await ended))) {
    throw unauthorized("This session has ended");
  }
  const context: AuthContext = { ...auth, via: bearer ? "bearer" : "cookie" };
  // The one CSRF rule (docs/adr/0058-one-csrf-rule-for-every-write.md): a browser sends
  // the access cookie on any site's form or fetch, so every write riding on it must prove it
  // came from our page. Checked here, before the route's own middleware, validation and
  // lookups, so no route can forget it.
  if (context.via === "cookie" && isWriteMethod(c.req.method)) await verifyCsrf(c, context);
  c.set("auth", context);
  await next();
};
markMiddleware(requireAuth, "auth");

/**
 * Admin rights come from the database role only, never from the token or a setting
 * (ADMIN_EMAILS promotes an account when the mailbox holder sets its password through a reset;
 * docs/adr/0053-roles-in-database-only.md, docs/adr/0084-admin-only-for-the-mailbox-holder.md).
 */
export const requireAdmin: MiddlewareHandler<AppEnv> = async function requireAdmin(c, next) {
  const deps = c.get("deps");
  const auth = c.get("auth");
  const user = await deps.sessions.accountStanding(deps, auth.userId);
  if (user?.status !== "active") throw unauthorized("Account is not active");
  if (user.role !== "admin") throw forbidden("Admin rights required", "admin_required");
  await next();
};

/** Optional auth for public routes that behave differently for a signed-in caller. */
export async function optionalAuth(c: Context<AppEnv>) {
  const token = bearerToken(c) ?? getCookie(c, ACCESS_COOKIE);
  if (!token) return null;
  const deps = c.get("deps");
  const auth = await deps.sessions.verifyAccessToken(deps, token);
  return auth && !(await deps.sessions.isSessionEnded(deps, auth.sessionId)) ? auth : null;
}
