import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { base64url, base64urlDecode, hmacSign, hmacVerify, randomToken } from "../lib/crypto";
import type { AuthContext, Deps } from "../ports";
import { CSRF_COOKIE } from "./cookies";
import type { AppEnv } from "./env";
import { csrfErrorResponses, forbidden } from "./errors";

export const CSRF_HEADER = "X-CSRF-Token";
/** Pre-login tokens are bound to this pseudo-session and never pass a protected route. */
const ANONYMOUS_SESSION = "anonymous";

/**
 * What a session's CSRF token is bound to: the session (refresh-token family) and what it may do.
 * The role and guest state are in the signed message, so a privilege change (an admin granting or
 * removing admin, a guest becoming an account) rotates the token: once the session's access token
 * carries the new role (the next refresh), a token issued before no longer verifies.
 */
interface CsrfSession {
  sessionId: string;
  role: string;
  isGuest: boolean;
}

const privilegeOf = (session: CsrfSession) => `${session.role}${session.isGuest ? "+guest" : ""}`;

// OWASP "signed double-submit cookie": length-prefixed session, privilege and nonce under an HMAC.
const message = (sessionId: string, privilege: string, nonce: string) =>
  [sessionId, privilege, nonce].map((part) => `${part.length}!${part}`).join("!");

/** 128 bits derived from the session and privilege under the CSRF key (22 base64url chars). */
async function sessionNonce(deps: Deps, sessionId: string, privilege: string) {
  const derived = await hmacSign(deps.keys.csrf, `nonce!${message(sessionId, privilege, "")}`);
  return base64url(derived.slice(0, 16));
}

/**
 * A CSRF token: `nonce.signature`. A signed-in session's token is the same on every issue (its
 * nonce is derived from the session under the CSRF key), so login, every refresh and
 * `GET /auth/csrf` hand out one value for the whole session: a cross-site frontend may keep the
 * login's, and the csrf cookie a refresh sets never stops matching it (docs/deploy.md,
 * docs/adr/0094-payment-budgets-order-keys-csrf-session.md). It changes with the session (login,
 * register, guest, WeChat login) and with the privilege (CsrfSession). `null`: a pre-login token
 * with a random nonce, bound to ANONYMOUS_SESSION, which passes no protected route.
 */
export async function createCsrfToken(deps: Deps, session: CsrfSession | null): Promise<string> {
  const sessionId = session?.sessionId ?? ANONYMOUS_SESSION;
  const privilege = session ? privilegeOf(session) : "";
  const nonce = session ? await sessionNonce(deps, sessionId, privilege) : randomToken(16);
  const signature = await hmacSign(deps.keys.csrf, message(sessionId, privilege, nonce));
  return `${nonce}.${base64url(signature)}`;
}

export async function verifyCsrfToken(deps: Deps, session: CsrfSession, token: string) {
  const [nonce, signature, ...rest] = token.split(".");
  if (!nonce || !signature || rest.length > 0 || token.length > 200) return false;
  let bytes: Uint8Array;
  try {
    bytes = base64urlDecode(signature);
  } catch {
    return false;
  }
  return hmacVerify(deps.keys.csrf, bytes, message(session.sessionId, privilegeOf(session), nonce));
}

/** Methods that change state; anything else (GET, HEAD, OPTIONS) must not. */
export function isWriteMethod(method: string) {
  return method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
}

/**
 * The double-submit check for one session: the header must carry a token signed for it, and a
 * browser session (cookie auth) must also send the same value in the csrf cookie.
 */
export async function verifyCsrf(c: Context<AppEnv>, auth: AuthContext) {
  const header = c.req.header(CSRF_HEADER);
  if (!header) throw forbidden("CSRF token missing", "csrf_missing");
  const cookie = getCookie(c, CSRF_COOKIE);
  if (auth.via === "cookie" && !cookie) throw forbidden("CSRF cookie missing", "csrf_missing");
  if (cookie !== undefined && cookie !== header)
    throw forbidden("CSRF token mismatch", "csrf_mismatch");
  if (!(await verifyCsrfToken(c.get("deps"), auth, header))) {
    throw forbidden("CSRF token invalid", "csrf_invalid");
  }
}

/** OpenAPI security of a `C` route: the header is required from Bearer clients too. */
export const csrfSecurity = [{ bearerAuth: [], csrfToken: [] }];

/**
 * `C` routes (API.md): the header is required even from Bearer clients. Runs after
 * requireAuth, which has already checked every cookie-session write (the one central rule,
 * docs/adr/0058-one-csrf-rule-for-every-write.md), so only the requests it let through
 * unchecked are verified here.
 */
export const requireCsrf: MiddlewareHandler<AppEnv> = async function requireCsrf(c, next) {
  const auth = c.get("auth");
  if (!(auth.via === "cookie" && isWriteMethod(c.req.method))) await verifyCsrf(c, auth);
  await next();
};

type SecurityRequirement = Record<string, string[]>;

/**
 * The OpenAPI side of the central rule, derived from the same place so the document cannot drift
 * from it: every operation that takes the bearer token also takes the `access_token` cookie, and
 * on a write the cookie alternative requires the CSRF header. Call after every router is mounted.
 */
export function declareCookieSessions(registry: OpenAPIHono["openAPIRegistry"]) {
  for (const definition of registry.definitions) {
    if (definition.type !== "route") continue;
    const route = definition.route;
    const security = (route.security ?? []) as SecurityRequirement[];
    if (!security.some((requirement) => "bearerAuth" in requirement)) continue;
    if (security.some((requirement) => "cookieAuth" in requirement)) continue;
    const write = isWriteMethod(route.method.toUpperCase());
    route.security = [...security, write ? { cookieAuth: [], csrfToken: [] } : { cookieAuth: [] }];
    if (!write) continue;
    const forbidden = route.responses[403];
    if (!forbidden) {
      route.responses = { ...route.responses, 403: csrfErrorResponses[403] };
    } else if ("description" in forbidden && !/csrf/i.test(forbidden.description ?? "")) {
      // A route's own 403 (admin rights, plan limits) shares the status with the CSRF refusal.
      const description = `${forbidden.description}; or a missing or invalid CSRF token`;
      route.responses = { ...route.responses, 403: { ...forbidden, description } };
    }
  }
}
