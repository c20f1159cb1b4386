import type { RateLimitRule } from "../providers/ratelimit/types";

/**
 * The rate limits of spec section 8, plus token refresh (not in the spec).
 *
 * `failClosed` decides what happens while the limiter's store (Redis / Upstash) is unreachable:
 * true answers 503, false lets requests through unlimited. Rules that stop password guessing,
 * account or guest-session farming and payment abuse fail closed: an outage of the store must
 * not switch those protections off. Rules on already-authenticated, low-risk traffic fail open,
 * so a store outage does not become an outage of the service.
 */
export const RATE_LIMIT_RULES = {
  /** 5 per minute (spec). Key: client IP (and the e-mail, if the caller adds a second check). */
  login: { name: "login", points: 5, durationSeconds: 60, failClosed: true },
  /**
   * Not in the spec: every password login from one client IP, whatever the e-mail, so one
   * address cannot spray passwords over many accounts or flood the hash queue. 20 a minute and
   * 200 an hour: an office behind one NAT signs in with passwords rarely (sessions refresh for
   * 30 days without one), so 20 people in the same minute or 200 in an hour is far above its
   * need; a sprayer gets 200 guesses an hour per address instead of unlimited
   * (docs/adr/0060-login-budgets-per-ip.md).
   */
  loginIp: { name: "login_ip", points: 20, durationSeconds: 60, failClosed: true },
  loginIpHourly: { name: "login_ip_hour", points: 200, durationSeconds: 3600, failClosed: true },
  /** 3 per hour (spec). Key: client IP. */
  register: { name: "register", points: 3, durationSeconds: 3600, failClosed: true },
  /** 5 per client IP per 15 minutes (spec). */
  guest: { name: "guest", points: 5, durationSeconds: 900, failClosed: true },
  /** 3 per 5 minutes (spec): the current password is checked, so this is a guessing surface. */
  passwordChange: { name: "password_change", points: 3, durationSeconds: 300, failClosed: true },
  /**
   * 20 per minute (spec), for user-initiated payment endpoints: `payment` for the writes that
   * create an order (create order, purchase, subscribe), `paymentRead` for reading orders. Two
   * budgets, so a checkout page polling its order's status never spends the budget of the
   * purchase after it (docs/adr/0094-payment-budgets-order-keys-csrf-session.md). Reads fail
   * closed like writes: they query the database per call and are what a scraper would loop on.
   * Gateway callbacks are signature-verified and idempotent and should not sit behind either:
   * they arrive from few gateway addresses and a 429 or 503 only causes retries.
   */
  payment: { name: "payment", points: 20, durationSeconds: 60, failClosed: true },
  paymentRead: { name: "payment_read", points: 20, durationSeconds: 60, failClosed: true },
  /**
   * 30 per minute (spec), keyed by admin user. Fails open: the caller is already an
   * authenticated admin (admin login itself is under `login`, which fails closed), the limit
   * guards against runaway scripts rather than attackers, and a store outage is exactly when
   * operators need the admin API.
   */
  admin: { name: "admin", points: 30, durationSeconds: 60, failClosed: false },
  /**
   * Not in the spec: 30 per minute per client IP. Fails open: a refresh token is a
   * high-entropy secret, so this limit is not what stops guessing, and failing closed would
   * stop every session from refreshing whenever the store blips.
   */
  refresh: { name: "refresh", points: 30, durationSeconds: 60, failClosed: false },
  /**
   * Not in the spec: mail-sending routes fail closed, or a store outage would let anyone use
   * us to flood an inbox. Verification mail again: 5 per hour per user.
   */
  verifyEmailRequest: {
    name: "verify_email_request",
    points: 5,
    durationSeconds: 3600,
    failClosed: true,
  },
  /** Forgot password: 10 per hour per client IP, and 3 per hour per address asked for. */
  passwordForgot: { name: "password_forgot", points: 10, durationSeconds: 3600, failClosed: true },
  passwordForgotEmail: {
    name: "password_forgot_email",
    points: 3,
    durationSeconds: 3600,
    failClosed: true,
  },
  /** E-mail change: 5 per hour per user (the password is checked, a guessing surface too). */
  emailChange: { name: "email_change", points: 5, durationSeconds: 3600, failClosed: true },
  /**
   * Invitations to an organisation: 30 per hour per inviting user. Each mails an address the
   * inviter chose, and revoking then inviting again would otherwise mail it without end; 30
   * an hour seats a 50-person company in two hours.
   */
  orgInvitation: { name: "org_invitation", points: 30, durationSeconds: 3600, failClosed: true },
  /**
   * Sending a quotation by mail (POST /quotations/{id}/send): 20 an hour per member. Each mails
   * addresses the member typed, from our sender: a budget a seller never meets in a day's work
   * that keeps a taken-over account from using us to spam. Fails closed like every mail route.
   */
  quotationSend: { name: "quotation_send", points: 20, durationSeconds: 3600, failClosed: true },
  /**
   * Deleting one's account (DELETE /users/me): 5 per 15 minutes per user, fails closed: each
   * checks a password or a 6-digit mailed code, a guessing surface.
   */
  accountDelete: { name: "account_delete", points: 5, durationSeconds: 900, failClosed: true },
  /** The mailed deletion code: 3 an hour per user, fails closed like every mail route. */
  accountDeletionCode: {
    name: "account_deletion_code",
    points: 3,
    durationSeconds: 3600,
    failClosed: true,
  },
  /** The account's export (a zip of every record): 10 an hour per user; fails open. */
  accountExport: { name: "account_export", points: 10, durationSeconds: 3600, failClosed: false },
  /** Using a mailed token (verify, reset): 20 per 15 minutes per IP; a reset hashes a password. */
  emailToken: { name: "email_token", points: 20, durationSeconds: 900, failClosed: true },
} as const satisfies Record<string, RateLimitRule>;
