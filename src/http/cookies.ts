import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import { type Config, cookiesSecure } from "../config";
import type { AppEnv } from "./env";

export const ACCESS_COOKIE = "access_token";
export const REFRESH_COOKIE = "refresh_token";
export const CSRF_COOKIE = "csrf_token";
/** The refresh cookie only travels to the endpoints that use it. */
const REFRESH_PATH = "/api/v1/auth";

export interface SessionCookies {
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
  refreshMaxAgeSeconds: number;
}

type SameSite = NonNullable<CookieOptions["sameSite"]>;

/**
 * SameSite of the access and CSRF cookies, and of the refresh cookie, per COOKIE_SAMESITE.
 * `lax` keeps the refresh cookie Strict (only the app's own pages refresh); `none` must make it
 * None too, or a frontend on another site could log in but never refresh.
 */
function sameSitePolicy(config: Config): { session: SameSite; refresh: SameSite } {
  switch (config.COOKIE_SAMESITE) {
    case "none":
      return { session: "None", refresh: "None" };
    case "strict":
      return { session: "Strict", refresh: "Strict" };
    default:
      return { session: "Lax", refresh: "Strict" };
  }
}

/** The attributes every cookie of this service shares (a delete must repeat them to apply). */
function attributes(config: Config, sameSite: SameSite, path: string) {
  return { secure: cookiesSecure(config), sameSite, path } as const;
}

export function setSessionCookies(c: Context<AppEnv>, cookies: SessionCookies) {
  const config = c.get("deps").config;
  const policy = sameSitePolicy(config);
  setCookie(c, ACCESS_COOKIE, cookies.accessToken, {
    ...attributes(config, policy.session, "/"),
    httpOnly: true,
    maxAge: config.ACCESS_TOKEN_TTL_SECONDS,
  });
  setCookie(c, REFRESH_COOKIE, cookies.refreshToken, {
    ...attributes(config, policy.refresh, REFRESH_PATH),
    httpOnly: true,
    maxAge: cookies.refreshMaxAgeSeconds,
  });
  setCsrfCookie(c, cookies.csrfToken);
}

/** Readable by the page's script, which echoes it in X-CSRF-Token. */
export function setCsrfCookie(c: Context<AppEnv>, token: string) {
  const config = c.get("deps").config;
  setCookie(c, CSRF_COOKIE, token, {
    ...attributes(config, sameSitePolicy(config).session, "/"),
    httpOnly: false,
  });
}

/**
 * A cross-site browser only takes a cookie change that is itself `SameSite=None; Secure`, so
 * the deletions carry the same attributes as the cookies they end.
 */
export function clearSessionCookies(c: Context<AppEnv>) {
  const config = c.get("deps").config;
  const policy = sameSitePolicy(config);
  deleteCookie(c, ACCESS_COOKIE, attributes(config, policy.session, "/"));
  deleteCookie(c, REFRESH_COOKIE, attributes(config, policy.refresh, REFRESH_PATH));
  deleteCookie(c, CSRF_COOKIE, attributes(config, policy.session, "/"));
}
