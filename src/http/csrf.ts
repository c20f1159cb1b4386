import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { Deps } from "../deps";
import { base64url, base64urlDecode, hmacSign, hmacVerify, randomToken } from "../lib/crypto";
import { CSRF_COOKIE } from "./cookies";
import type { AppEnv } from "./env";
import { forbidden } from "./errors";

export const CSRF_HEADER = "X-CSRF-Token";
/** Pre-login tokens are bound to this pseudo-session and never pass a protected route. */
export const ANONYMOUS_SESSION = "anonymous";

// OWASP "signed double-submit cookie": length-prefixed session id and nonce under an HMAC.
const message = (sessionId: string, nonce: string) =>
  `${sessionId.length}!${sessionId}!${nonce.length}!${nonce}`;

export async function createCsrfToken(deps: Deps, sessionId: string): Promise<string> {
  const nonce = randomToken(16);
  const signature = await hmacSign(deps.keys.csrf, message(sessionId, nonce));
  return `${nonce}.${base64url(signature)}`;
}

export async function verifyCsrfToken(deps: Deps, sessionId: string, token: string) {
  const [nonce, signature, ...rest] = token.split(".");
  if (!nonce || !signature || rest.length > 0 || token.length > 200) return false;
  let bytes: Uint8Array;
  try {
    bytes = base64urlDecode(signature);
  } catch {
    return false;
  }
  return hmacVerify(deps.keys.csrf, bytes, message(sessionId, nonce));
}

/**
 * Runs after requireAuth. The header must carry a token signed for this session; a browser
 * session (cookie auth) must also send the same value in the csrf cookie.
 */
export const requireCsrf: MiddlewareHandler<AppEnv> = async function requireCsrf(c, next) {
  const deps = c.get("deps");
  const auth = c.get("auth");
  const header = c.req.header(CSRF_HEADER);
  if (!header) throw forbidden("CSRF token missing");
  const cookie = getCookie(c, CSRF_COOKIE);
  if (auth.via === "cookie" && !cookie) throw forbidden("CSRF cookie missing");
  if (cookie !== undefined && cookie !== header) throw forbidden("CSRF token mismatch");
  if (!(await verifyCsrfToken(deps, auth.sessionId, header))) throw forbidden("CSRF token invalid");
  await next();
};

/**
 * For routes API.md does not mark C (admin writes): bearer clients are not exposed to CSRF,
 * but a browser session riding on cookies still has to prove it.
 */
export const requireCsrfForCookieSessions: MiddlewareHandler<AppEnv> =
  async function requireCsrfForCookieSessions(c, next) {
    if (c.get("auth").via === "cookie") return requireCsrf(c, next);
    await next();
  };
