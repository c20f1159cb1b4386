import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requireAuth } from "../../http/auth";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import type { AppEnv } from "../../http/env";
import {
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  errorResponses,
  rateLimitedResponses,
} from "../../http/errors";
import { limitByIp, limitByUser } from "../../http/limits";
import { jsonBody as body, jsonResponse as json } from "../../http/openapi";
import { rateLimit } from "../../http/rate-limit";
import { RATE_LIMIT_RULES } from "../../http/rate-limit-rules";
import { createRouter } from "../../http/router";
import { sha256Hex } from "../../lib/crypto";
import { callerSession } from "../auth/caller";
import { DetailSchema } from "../auth/schemas";
import {
  EmailChangeBody,
  ForgotPasswordBody,
  ResetPasswordBody,
  VerifiedSchema,
  VerifyEmailBody,
} from "./schemas";
import {
  forgotPassword,
  type KeepAlive,
  mailVerificationAfterRegister,
  requestEmailChange,
  requestVerification,
  resetPassword,
  verifyEmail,
} from "./service";

const tags = ["Accounts"];
const badToken = { 400: errorResponse(ErrorSchema, "Link invalid, expired or already used") };

/** Keeps a mail send alive past the response: waitUntil on Workers, nothing needed on Node. */
function keepAliveOf(c: Context<AppEnv>): KeepAlive {
  return (task) => {
    try {
      c.executionCtx.waitUntil(task);
    } catch {
      // No execution context (Node, app.request in tests): the promise runs on by itself.
    }
  };
}

/**
 * Forgot-password budget per address asked for, read before validation like the login limit.
 * The key is the address's SHA-256, so the limiter's store holds no addresses.
 */
const limitForgotByEmail = rateLimit<AppEnv>(
  RATE_LIMIT_RULES.passwordForgotEmail,
  async (c) => {
    let email = "";
    try {
      const sent = (await c.req.json()) as { email?: unknown };
      if (typeof sent?.email === "string") email = sent.email.trim().toLowerCase().slice(0, 254);
    } catch {
      // A malformed body fails validation next; it spends the IP budget only.
    }
    return `email:${await sha256Hex(email)}`;
  },
  (c) => c.get("deps").limiter,
  (c, message, rule) => c.get("deps").logger.warn(message, { rule }),
);

/** The caller's own verification mail, from the registration handler (auth/routes.ts). */
export function mailVerificationOnRegister(
  c: Context<AppEnv>,
  user: { id: string; email: string | null },
): Promise<void> {
  return mailVerificationAfterRegister(c.get("deps"), user, keepAliveOf(c));
}

const verifyEmailRequestRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/verify-email/request",
  tags,
  security: csrfSecurity,
  summary: "Send (again) the verification mail to the caller's address; older links stop working",
  middleware: [requireAuth, requireCsrf, limitByUser(RATE_LIMIT_RULES.verifyEmailRequest)] as const,
  responses: {
    202: json(DetailSchema, "Mail on its way"),
    409: errorResponse(ErrorSchema, "Address already verified"),
    ...rateLimitedResponses,
    ...csrfErrorResponses,
    403: errorResponse(ErrorSchema, "CSRF token, or a guest or an account without an address"),
  },
});

const verifyEmailRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/verify-email",
  tags,
  summary: "Use the token of a verification or e-mail change mail: the address is verified",
  description:
    "Every session of the account ends except the caller's own, when the request carries it " +
    "(Bearer, or the access_token cookie with X-CSRF-Token): whoever registered the address " +
    "may not be who holds the mailbox. A verification never grants the admin role; an address " +
    "in ADMIN_EMAILS is verified through a password-reset link instead (docs/adr/0084).",
  middleware: [limitByIp(RATE_LIMIT_RULES.emailToken)] as const,
  request: { body: body(VerifyEmailBody) },
  responses: {
    200: json(VerifiedSchema, "Verified"),
    ...badToken,
    409: errorResponse(ErrorSchema, "The new address was taken by another account meanwhile"),
    ...rateLimitedResponses,
    ...errorResponses,
  },
});

const forgotPasswordRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/password/forgot",
  tags,
  summary: "Mail a reset link if an account has this address; the answer is the same either way",
  middleware: [limitByIp(RATE_LIMIT_RULES.passwordForgot), limitForgotByEmail] as const,
  request: { body: body(ForgotPasswordBody) },
  responses: {
    202: json(DetailSchema, "Accepted (whether or not the account exists)"),
    ...rateLimitedResponses,
    ...errorResponses,
  },
});

const resetPasswordRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/password/reset",
  tags,
  summary: "Set a new password with the mailed token; every session of the account ends",
  description:
    "The link reached the mailbox, so the address is verified too. An address in ADMIN_EMAILS " +
    "becomes admin here and only here (docs/adr/0084).",
  middleware: [limitByIp(RATE_LIMIT_RULES.emailToken)] as const,
  request: { body: body(ResetPasswordBody) },
  responses: {
    200: json(DetailSchema, "Password set"),
    ...badToken,
    ...rateLimitedResponses,
    ...errorResponses,
  },
});

const emailChangeRoute = createRoute({
  method: "post",
  path: "/api/v1/auth/email",
  tags,
  security: csrfSecurity,
  summary: "Change the e-mail address: takes effect once the link mailed to the new one is used",
  description:
    "An account without a password (WeChat sign-in) adds its address here and sets its first " +
    "password with `password`, confirmed by a fresh WeChat code (`wechat_code`); both take " +
    "effect when the link is used, which also ends every other session (docs/adr/0089).",
  middleware: [requireAuth, requireCsrf, limitByUser(RATE_LIMIT_RULES.emailChange)] as const,
  request: { body: body(EmailChangeBody) },
  responses: {
    202: json(DetailSchema, "Confirmation mailed to the new address"),
    409: errorResponse(ErrorSchema, "Another account has this address"),
    ...rateLimitedResponses,
    ...csrfErrorResponses,
    403: errorResponse(
      ErrorSchema,
      "CSRF token, a guest, or a WeChat code of another WeChat user than the account's",
    ),
  },
});

/** Account lifecycle: address verification, password reset, e-mail change. */
export function createAccountRoutes() {
  const router = createRouter();

  router.openapi(verifyEmailRequestRoute, async (c) => {
    await requestVerification(c.get("deps"), c.get("auth").userId, keepAliveOf(c));
    return c.json({ detail: "Verification mail sent; the link in it works once" }, 202);
  });

  router.openapi(verifyEmailRoute, async (c) => {
    const { token } = c.req.valid("json");
    const verified = await verifyEmail(c.get("deps"), token, await callerSession(c));
    const detail = verified.changed
      ? "Address changed and verified"
      : verified.firstVerification
        ? "Address verified"
        : "Address already verified";
    return c.json(
      {
        detail,
        email: verified.email,
        email_verified: true as const,
        sessions_ended: verified.sessionsEnded,
      },
      200,
    );
  });

  router.openapi(forgotPasswordRoute, async (c) => {
    await forgotPassword(c.get("deps"), c.req.valid("json").email, keepAliveOf(c));
    return c.json(
      { detail: "If an account has this address, a reset link is on its way to it" },
      202,
    );
  });

  router.openapi(resetPasswordRoute, async (c) => {
    const done = await resetPassword(c.get("deps"), c.req.valid("json"), c.get("requestId"));
    const detail = done.promoted
      ? "Password set; every session was signed out; this account is now an administrator"
      : "Password set; every session was signed out";
    return c.json({ detail }, 200);
  });

  router.openapi(emailChangeRoute, async (c) => {
    const { firstPassword } = await requestEmailChange(
      c.get("deps"),
      c.get("auth").userId,
      c.req.valid("json"),
      keepAliveOf(c),
    );
    const detail = firstPassword
      ? "Confirmation link sent to the new address; the address and your password take effect once it is used"
      : "Confirmation link sent to the new address; nothing changes until it is used";
    return c.json({ detail }, 202);
  });

  return router;
}
