import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { optionalAuth, requireAuth } from "../../http/auth";
import {
  clearSessionCookies,
  REFRESH_COOKIE,
  setCsrfCookie,
  setSessionCookies,
} from "../../http/cookies";
import { createCsrfToken, csrfSecurity, requireCsrf } from "../../http/csrf";
import type { AppEnv } from "../../http/env";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  errorResponses,
  rateLimitedResponses,
  unauthorized,
} from "../../http/errors";
import { limitByIp, limitByUser, limitLogin, requestIp } from "../../http/limits";
import { RATE_LIMIT_RULES } from "../../http/rate-limit-rules";
import { createRouter } from "../../http/router";
import { mailVerificationOnRegister } from "../account/routes";
import { findUserWithCredits, toUserResponse } from "../users/service";
import { callerSession } from "./caller";
import {
  CsrfSchema,
  DetailSchema,
  GuestUserSchema,
  LoginBody,
  PasswordChangeBody,
  RefreshBody,
  RegisterBody,
  SessionSchema,
  UserSchema,
  WechatLoginBody,
} from "./schemas";
import {
  changePassword,
  type GuestCaller,
  type IssuedSession,
  loginAsGuest,
  loginWithPassword,
  loginWithWechat,
  logout,
  refreshSession,
  registerUser,
} from "./service";

const tags = ["Accounts"];
const jsonBody = <T>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});
const sessionResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: SessionSchema } },
});

/**
 * The guest a register or login request turns into the account: the caller's own guest session
 * (callerSession). Anything else (no token, an invalid or ended one, a real account's token, a
 * cookie without the CSRF proof) is ignored and the request is a plain register or login.
 */
async function guestCaller(c: Context<AppEnv>): Promise<GuestCaller | undefined> {
  const caller = await callerSession(c);
  if (!caller?.isGuest) return undefined;
  return { userId: caller.userId, sessionId: caller.sessionId };
}

/** Sets the three cookies and answers the session body every login flavour shares. */
async function respondWithSession<S extends 200 | 201>(
  c: Context<AppEnv>,
  session: IssuedSession,
  status: S,
) {
  const deps = c.get("deps");
  // The session's one token (http/csrf.ts): a refresh hands out the login's again.
  const csrfToken = await createCsrfToken(deps, {
    sessionId: session.sessionId,
    role: session.user.role,
    isGuest: session.user.is_guest,
  });
  setSessionCookies(c, {
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    csrfToken,
    refreshMaxAgeSeconds: session.refreshMaxAgeSeconds,
  });
  return c.json(
    {
      access_token: session.accessToken,
      token_type: "bearer" as const,
      expires_in: session.expiresIn,
      refresh_token: session.refreshToken,
      csrf_token: csrfToken,
      user: toUserResponse(deps, session.user),
    },
    status,
  );
}

const csrfRoute = createRoute({
  method: "get",
  path: "/api/v1/auth/csrf",
  tags,
  summary: "Issue a CSRF token (cookie + body), bound to the caller's session if signed in",
  responses: {
    200: { description: "Token", content: { "application/json": { schema: CsrfSchema } } },
  },
});

const registerRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/register",
  tags,
  summary:
    "Register with email and password: 30 credits and a 7-day trial. Sent with a guest's token " +
    "(Bearer, or cookie + X-CSRF-Token), the guest becomes the account and keeps its id and data",
  middleware: [limitByIp(RATE_LIMIT_RULES.register)] as const,
  request: { body: jsonBody(RegisterBody) },
  responses: {
    201: sessionResponse("Registered and signed in"),
    409: errorResponse(ErrorSchema, "Email already registered"),
    ...rateLimitedResponses,
    ...errorResponses,
  },
});

const loginRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/login",
  tags,
  summary:
    "Sign in with a JSON body {email, password}. Budgets: 5/min per IP+email, 20/min and " +
    "200/h per IP, and a growing delay per account after 5 failures. Sent with a guest's token, " +
    "the guest's data moves to the account",
  middleware: [...limitLogin] as const,
  request: { body: jsonBody(LoginBody) },
  responses: {
    200: sessionResponse("Signed in"),
    401: errorResponse(ErrorSchema, "Incorrect email or password"),
    403: errorResponse(ErrorSchema, "Account disabled"),
    ...rateLimitedResponses,
    ...errorResponses,
  },
});

const guestRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/guest",
  tags,
  summary: "Sign in as a guest with a fresh UUID identity",
  middleware: [limitByIp(RATE_LIMIT_RULES.guest)] as const,
  responses: { 201: sessionResponse("Guest session"), ...rateLimitedResponses, ...errorResponses },
});

const wechatLoginRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/wechat/login",
  tags,
  summary:
    "Sign in with a WeChat OAuth code (creates the account on first use). Sent with a guest's " +
    "token (Bearer, or cookie + X-CSRF-Token), the guest becomes the WeChat account and keeps " +
    "its id and data; if the WeChat user already has an account, the guest's data moves to it",
  middleware: [limitByIp(RATE_LIMIT_RULES.login)] as const,
  request: { body: jsonBody(WechatLoginBody) },
  responses: {
    200: sessionResponse("Signed in"),
    401: errorResponse(ErrorSchema, "Code invalid or expired"),
    403: errorResponse(
      ErrorSchema,
      "Account disabled, or the guest's data would take the account past a plan limit " +
        "(`limit`, `max`, `plans`; nothing moved)",
    ),
    ...rateLimitedResponses,
    ...errorResponses,
  },
});

const refreshRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/refresh",
  tags,
  summary: "Rotate the refresh token (cookie or body) and get a new access token",
  middleware: [limitByIp(RATE_LIMIT_RULES.refresh)] as const,
  request: {
    body: { required: false, content: { "application/json": { schema: RefreshBody } } },
  },
  responses: {
    200: sessionResponse("New session tokens"),
    401: errorResponse(ErrorSchema, "Refresh token invalid, expired, revoked or reused"),
    ...rateLimitedResponses,
    ...errorResponses,
  },
});

const logoutRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/logout",
  tags,
  summary: "Revoke this session's refresh tokens and clear cookies",
  security: csrfSecurity,
  middleware: [requireAuth, requireCsrf] as const,
  responses: {
    200: { description: "Signed out", content: { "application/json": { schema: DetailSchema } } },
    ...csrfErrorResponses,
  },
});

const passwordRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/password",
  tags,
  summary: "Change password; every other session is signed out",
  description:
    "An account without a password (WeChat sign-in) gets 403 here: it sets its first password " +
    "together with an e-mail address through POST /api/v1/auth/email (docs/adr/0089).",
  security: csrfSecurity,
  middleware: [requireAuth, requireCsrf, limitByUser(RATE_LIMIT_RULES.passwordChange)] as const,
  request: { body: jsonBody(PasswordChangeBody) },
  responses: {
    200: { description: "Changed", content: { "application/json": { schema: DetailSchema } } },
    ...rateLimitedResponses,
    ...csrfErrorResponses,
    403: errorResponse(ErrorSchema, "CSRF token, or an account without a password yet"),
  },
});

const meRoute = createRoute({
  method: "get",
  path: "/api/v1/auth/me",
  tags,
  summary: "The current user (guests get their own shape with is_guest: true)",
  security: [{ bearerAuth: [] }],
  middleware: [requireAuth] as const,
  responses: {
    200: {
      description: "Current user",
      content: { "application/json": { schema: UserSchema.or(GuestUserSchema) } },
    },
    ...authErrorResponses,
  },
});

export function createAuthRoutes() {
  const router = createRouter();

  router.openapi(csrfRoute, async (c) => {
    const auth = await optionalAuth(c);
    const token = await createCsrfToken(c.get("deps"), auth ?? null);
    setCsrfCookie(c, token);
    return c.json({ csrf_token: token }, 200);
  });

  router.openapi(registerRoute, async (c) => {
    const session = await registerUser(
      c.get("deps"),
      c.req.valid("json"),
      requestIp(c),
      await guestCaller(c),
    );
    await mailVerificationOnRegister(c, session.user);
    return respondWithSession(c, session, 201);
  });

  router.openapi(loginRoute, async (c) => {
    const session = await loginWithPassword(
      c.get("deps"),
      c.req.valid("json"),
      requestIp(c),
      await guestCaller(c),
    );
    return respondWithSession(c, session, 200);
  });

  router.openapi(guestRoute, async (c) => {
    const session = await loginAsGuest(c.get("deps"), requestIp(c));
    return respondWithSession(c, session, 201);
  });

  router.openapi(wechatLoginRoute, async (c) => {
    const { code } = c.req.valid("json");
    const session = await loginWithWechat(c.get("deps"), code, requestIp(c), await guestCaller(c));
    return respondWithSession(c, session, 200);
  });

  router.openapi(refreshRoute, async (c) => {
    const token = c.req.valid("json").refresh_token ?? getCookie(c, REFRESH_COOKIE);
    if (!token) throw unauthorized("Refresh token missing");
    const session = await refreshSession(c.get("deps"), token);
    return respondWithSession(c, session, 200);
  });

  router.openapi(logoutRoute, async (c) => {
    await logout(c.get("deps"), c.get("auth").sessionId);
    clearSessionCookies(c);
    return c.json({ detail: "Signed out" }, 200);
  });

  router.openapi(passwordRoute, async (c) => {
    const { revokedSessions } = await changePassword(
      c.get("deps"),
      c.get("auth"),
      c.req.valid("json"),
    );
    return c.json(
      { detail: `Password changed; ${revokedSessions} other session(s) signed out` },
      200,
    );
  });

  router.openapi(meRoute, async (c) => {
    const user = await findUserWithCredits(c.get("deps"), c.get("auth").userId);
    if (user?.status !== "active") throw unauthorized("Account is not active");
    return c.json(toUserResponse(c.get("deps"), user), 200);
  });

  return router;
}
