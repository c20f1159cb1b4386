import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { cookiesSecure } from "../config";
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

export function setSessionCookies(c: Context<AppEnv>, cookies: SessionCookies) {
  const secure = cookiesSecure(c.get("deps").config);
  setCookie(c, ACCESS_COOKIE, cookies.accessToken, {
    httpOnly: true,
    secure,
    sameSite: "Lax",
    path: "/",
    maxAge: c.get("deps").config.ACCESS_TOKEN_TTL_SECONDS,
  });
  setCookie(c, REFRESH_COOKIE, cookies.refreshToken, {
    httpOnly: true,
    secure,
    sameSite: "Strict",
    path: REFRESH_PATH,
    maxAge: cookies.refreshMaxAgeSeconds,
  });
  setCsrfCookie(c, cookies.csrfToken);
}

/** Readable by the page's script, which echoes it in X-CSRF-Token. */
export function setCsrfCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, CSRF_COOKIE, token, {
    httpOnly: false,
    secure: cookiesSecure(c.get("deps").config),
    sameSite: "Lax",
    path: "/",
  });
}

export function clearSessionCookies(c: Context<AppEnv>) {
  deleteCookie(c, ACCESS_COOKIE, { path: "/" });
  deleteCookie(c, REFRESH_COOKIE, { path: REFRESH_PATH });
  deleteCookie(c, CSRF_COOKIE, { path: "/" });
}
