import type { SQL } from "drizzle-orm";
import { type Db, pgConstraint, pgErrorCode } from "../../db/client";
import {
  badRequest,
  conflict,
  forbidden,
  unauthorized,
  unavailable,
  type ValidationIssue,
  validationError,
} from "../../http/errors";
import { nowIso } from "../../lib/clock";
import { randomToken, sha256Hex } from "../../lib/crypto";
import type { Deps } from "../../ports";
import { MailError, type MailMessage } from "../../providers/mail/types";
import { WechatAuthError } from "../../providers/messaging/wechat";
import {
  issueEmailToken,
  resetTokenUsable,
  type TokenPurpose,
  tokenPurpose,
  tokenState,
  useEmailChangeToken,
  useResetToken,
  useVerifyToken,
} from "../auth/queries/email-tokens";
import { noteSessionEnded } from "../auth/revocations";
import { referralRewardOnVerification } from "../growth/queries";
import {
  type AccountRow,
  demoteClickBootstrappedAdmins,
  demoteUnverifiedAdmins,
  findUserByEmail,
  getAccount,
  mailTargets,
} from "../users/queries/account";
import { frontendUrl } from "./links";
import {
  changeEmailMail,
  claimAddressMail,
  emailChangeNoticeMail,
  resetPasswordMail,
  verifyEmailMail,
} from "./mails";

/** How long a mailed link works (docs/mail.md). A reset is short-lived: it is a password. */
const TOKEN_TTL_MINUTES: Record<TokenPurpose, number> = {
  verify_email: 48 * 60,
  change_email: 24 * 60,
  reset_password: 60,
};

/** Keeps a background task alive past the response (Workers: `executionCtx.waitUntil`). */
export type KeepAlive = ((task: Promise<unknown>) => void) | undefined;

/* Mails not yet handed to the provider. Module-level on purpose, as agent runs are: a send
 * outlives the request that started it, and tests (or a shutdown) await them via pendingMail. */
const inFlight = new Set<Promise<void>>();

/** Resolves once every mail started so far was accepted or failed (never rejects). */
export async function pendingMail(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/**
 * Sends after the response: a slow or failing provider never delays the request or changes
 * its answer (forgot-password must look the same whether or not the account exists). A
 * failure is logged without the message, whose link is a credential.
 */
function sendInBackground(
  deps: Deps,
  message: MailMessage,
  about: { userId: string; mail: string },
  keepAlive: KeepAlive,
): void {
  const task: Promise<void> = deps.mailer
    .send(message)
    .catch((error: unknown) => {
      deps.logger.warn("mail not sent", {
        mail: about.mail,
        user_id: about.userId,
        provider: deps.mailer.kind,
        reason: error instanceof MailError ? error.reason : "error",
        ...(error instanceof MailError && error.status !== undefined
          ? { status: error.status }
          : {}),
        ...(error instanceof MailError && error.code ? { code: error.code } : {}),
      });
    })
    .finally(() => inFlight.delete(task));
  inFlight.add(task);
  keepAlive?.(task);
}

/** The page each kind of link opens in the web app, and the message around it. */
const LINK_MAILS: Record<TokenPurpose, { page: string; compose: typeof verifyEmailMail }> = {
  verify_email: { page: "verify-email", compose: verifyEmailMail },
  reset_password: { page: "reset-password", compose: resetPasswordMail },
  change_email: { page: "verify-email", compose: changeEmailMail },
};

/**
 * The link that verifies an address listed in ADMIN_EMAILS: a password reset (the page where
 * the mailbox holder chooses the password), living as long as a verification link, with its own
 * text. ADR 0084.
 */
const CLAIM_LINK = {
  purpose: "reset_password",
  page: "reset-password",
  compose: claimAddressMail,
  ttlMinutes: TOKEN_TTL_MINUTES.verify_email,
} as const;

/** Mails the link of a token just issued to the address it was issued for. */
function mailLink(
  deps: Deps,
  link: { page: string; compose: typeof verifyEmailMail; ttlMinutes: number; mail: string },
  issued: { userId: string; email: string; token: string },
  keepAlive: KeepAlive,
): void {
  const url = frontendUrl(deps, `/${link.page}?token=${encodeURIComponent(issued.token)}`);
  sendInBackground(
    deps,
    { to: issued.email, ...link.compose(url, link.ttlMinutes) },
    { userId: issued.userId, mail: link.mail },
    keepAlive,
  );
}

/** The mail of a token of `purpose` with its usual page, text and lifetime. */
const linkOf = (purpose: TokenPurpose) => ({
  ...LINK_MAILS[purpose],
  ttlMinutes: TOKEN_TTL_MINUTES[purpose],
  mail: purpose,
});

/** Whether ADMIN_EMAILS lists `email` (both sides normalised: trimmed, lower-case). */
function isListedAdminAddress(deps: Deps, email: string): boolean {
  return deps.config.ADMIN_EMAILS.includes(email.trim().toLowerCase());
}

/**
 * Issues a token for the account `target` selects (columns `id`, `email`: the address the mail
 * goes to) in one statement that also expires the account's older unused tokens of the same
 * purpose, so only the newest link works. Returns null when `target` selected nobody.
 */
async function issueToken(
  deps: Deps,
  purpose: TokenPurpose,
  target: SQL,
  ttlMinutes = TOKEN_TTL_MINUTES[purpose],
  passwordHash: string | null = null,
) {
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + ttlMinutes * 60_000).toISOString();
  const row = await issueEmailToken(deps.db, {
    purpose,
    target,
    hash,
    now: now.toISOString(),
    expiresAt,
    passwordHash,
  });
  return row ? { userId: row.user_id, email: row.email, token } : null;
}

/** Why a token did nothing: unknown, used, expired (or replaced), or no longer applicable. */
async function tokenRefusal(deps: Deps, hash: string, purposes: TokenPurpose[]) {
  const row = await tokenState(deps.db, { hash, purposes, now: nowIso(deps) });
  if (!row) return badRequest("This link is invalid");
  if (row.used) return badRequest("This link has already been used");
  if (row.expired) return badRequest("This link has expired or a newer one was sent; ask again");
  return badRequest("This link no longer matches the account; ask for a new one");
}

/**
 * At start-up, listed accounts whose admin role no mailbox holder confirmed by setting the
 * password go back to `user`, each with an audit row: those made admin by registering a listed
 * address before verification was required, and those made admin by a click on the
 * verification link before ADR 0084 (the click proved the mailbox, not who holds the password).
 * A password reset by the mailbox holder makes them admin again. Admins granted any other way
 * are untouched.
 */
export async function demoteUnverifiedListedAdmins(db: Db, listed: string[]): Promise<number> {
  if (listed.length === 0) return 0;
  const unverified = await demoteUnverifiedAdmins(db, { listed });
  return unverified + (await demoteClickBootstrappedAdmins(db, { listed }));
}

/** What a verification statement needs beyond the token: the caller's session and the reward. */
function verifyParams(
  deps: Deps,
  hash: string,
  keepSessionId: string | null,
): Parameters<typeof useVerifyToken>[1] {
  const now = nowIso(deps);
  return {
    hash,
    now,
    keepSessionId,
    rewardCtes: (verified) => referralRewardOnVerification(verified, now),
  };
}

export interface Verified {
  email: string;
  /** The token was an e-mail change: `email` is the account's new address. */
  changed: boolean;
  /** False when the address had been verified already (the link still counts as used). */
  firstVerification: boolean;
  /** How many of the account's sessions the use ended (all but the caller's own). */
  sessionsEnded: number;
}

/** The caller of POST /auth/verify-email, when it sent its own session (ADR 0084). */
export interface VerifyCaller {
  sessionId: string;
}

/** Refused here at once; other instances learn of it from session_revocations. */
function noteEnded(deps: Deps, sessions: readonly string[] | null | undefined): number {
  for (const sessionId of sessions ?? []) noteSessionEnded(deps, sessionId);
  return sessions?.length ?? 0;
}

/**
 * POST /auth/verify-email: the token of a verification mail (verify_email) or of an e-mail
 * change (change_email). Each is used in one statement that checks it is unused and unexpired
 * and marks it used, so two concurrent uses apply once. A first verification also earns the
 * referral reward in that statement (growth/queries.ts: the referred party's days ride on
 * the users UPDATE, the referrer's in the CTEs appended after `verified`).
 *
 * A verification never raises anyone's rights, and it ends every session of the account but
 * the caller's own (`caller`, when the click came with it): whoever registered the address, or
 * asked for the change, may not be who holds the mailbox (ADR 0084).
 */
export async function verifyEmail(
  deps: Deps,
  token: string,
  caller: VerifyCaller | undefined,
): Promise<Verified> {
  const hash = await sha256Hex(token);
  const found = await tokenPurpose(deps.db, { hash });
  if (found?.purpose === "change_email") return applyEmailChange(deps, hash, caller);
  if (found?.purpose !== "verify_email") throw badRequest("This link is invalid");
  const row = await useVerifyToken(deps.db, verifyParams(deps, hash, caller?.sessionId ?? null));
  if (!row) throw await tokenRefusal(deps, hash, ["verify_email"]);
  return {
    email: row.email,
    changed: false,
    firstVerification: row.first,
    sessionsEnded: noteEnded(deps, row.sessions),
  };
}

/**
 * The new address of an e-mail change takes effect (verified, since the link reached it); the
 * account's other unused links, sent to the old address, stop working. An account that took
 * the address meanwhile makes it a 409 and nothing changes, the token included.
 */
async function applyEmailChange(
  deps: Deps,
  hash: string,
  caller: VerifyCaller | undefined,
): Promise<Verified> {
  let row: Awaited<ReturnType<typeof useEmailChangeToken>>;
  try {
    row = await useEmailChangeToken(deps.db, verifyParams(deps, hash, caller?.sessionId ?? null));
  } catch (error) {
    if (pgErrorCode(error) === "23505" && pgConstraint(error) === "users_email_key") {
      throw conflict("An account with this email already exists");
    }
    throw error;
  }
  if (!row) throw await tokenRefusal(deps, hash, ["change_email"]);
  return {
    email: row.email,
    changed: true,
    firstVerification: row.first,
    sessionsEnded: noteEnded(deps, row.sessions),
  };
}

async function account(deps: Deps, userId: string) {
  const user = await getAccount(deps.db, { id: userId });
  if (user?.status !== "active") throw unauthorized("Account is not active");
  return user;
}

/**
 * Mails a verification link to the account's address; false when there is none to verify. For
 * an address in ADMIN_EMAILS the link is the claim (CLAIM_LINK): the mailbox holder sets the
 * password there, which verifies the address, ends every earlier session and password, and
 * only then makes the account admin (ADR 0084).
 */
async function mailVerificationLink(
  deps: Deps,
  user: { id: string; email: string },
  keepAlive: KeepAlive,
) {
  const target = mailTargets.unverified(user.id);
  if (isListedAdminAddress(deps, user.email)) {
    const { purpose, ttlMinutes } = CLAIM_LINK;
    const issued = await issueToken(deps, purpose, target, ttlMinutes);
    if (!issued) return false;
    mailLink(deps, { ...CLAIM_LINK, mail: "claim_address" }, issued, keepAlive);
    return true;
  }
  const issued = await issueToken(deps, "verify_email", target);
  if (!issued) return false;
  mailLink(deps, linkOf("verify_email"), issued, keepAlive);
  return true;
}

/** POST /auth/verify-email/request: the verification mail again (the older link stops working). */
export async function requestVerification(deps: Deps, userId: string, keepAlive: KeepAlive) {
  const user = await account(deps, userId);
  if (user.is_guest)
    throw forbidden("Guests have no e-mail address; register first", "guest_not_allowed");
  if (!user.email) throw forbidden("This account has no e-mail address");
  if (user.email_verified_at) throw conflict("This address is already verified");
  if (!(await mailVerificationLink(deps, { id: userId, email: user.email }, keepAlive))) {
    throw conflict("This address is already verified");
  }
}

/**
 * After registration: the verification mail. Never throws: the account exists by now, and a
 * failure here must not turn a registration into an error; the user can ask again.
 */
export async function mailVerificationAfterRegister(
  deps: Deps,
  user: { id: string; email: string | null },
  keepAlive: KeepAlive,
): Promise<void> {
  if (!user.email) return; // WeChat and guest accounts have no address to verify
  try {
    await mailVerificationLink(deps, { id: user.id, email: user.email }, keepAlive);
  } catch (error) {
    deps.logger.warn("verification mail not issued", { user_id: user.id, error: String(error) });
  }
}

/**
 * POST /auth/password/forgot: one statement whether or not the account exists (it finds the
 * account and issues the token together), and the mail leaves after the response, so the
 * answer and its timing say nothing about the address.
 */
export async function forgotPassword(deps: Deps, email: string, keepAlive: KeepAlive) {
  const issued = await issueToken(deps, "reset_password", mailTargets.active(email));
  if (!issued) return;
  mailLink(deps, linkOf("reset_password"), issued, keepAlive);
}

/**
 * POST /auth/password/reset: the token is used, the password replaced, the address verified,
 * the login-failure state cleared and every session of the account revoked, in one statement
 * (a trigger records the revoked sessions, so their access tokens are refused too). An address
 * in ADMIN_EMAILS makes the account admin in that statement: the first-admin bootstrap
 * (ADR 0084).
 */
export async function resetPassword(
  deps: Deps,
  input: { token: string; new_password: string },
  requestId: string | undefined,
) {
  const hash = await sha256Hex(input.token);
  const now = nowIso(deps);
  // A cheap look first, so a bad token never costs a password hash; the statement decides.
  if (!(await resetTokenUsable(deps.db, { hash, now }))) {
    throw await tokenRefusal(deps, hash, ["reset_password"]);
  }
  const passwordHash = await deps.passwords.hash(input.new_password);
  const row = await useResetToken(deps.db, {
    hash,
    now,
    passwordHash,
    adminEmails: deps.config.ADMIN_EMAILS,
    requestId,
    rewardCtes: (verified) => referralRewardOnVerification(verified, now),
  });
  if (!row) throw await tokenRefusal(deps, hash, ["reset_password"]);
  return { revokedSessions: noteEnded(deps, row.sessions), promoted: row.promoted };
}

/**
 * POST /auth/email: after the password, a link to the new address; the old address gets a
 * notice. Nothing changes until the link is used (applyEmailChange). An account without a
 * password (WeChat sign-in) sets its first one here, confirmed by a fresh WeChat code; the link
 * carries it and it takes effect with the address (checkFirstPassword, ADR 0089).
 */
export async function requestEmailChange(
  deps: Deps,
  userId: string,
  input: { new_email: string; password: string; wechat_code?: string | undefined },
  keepAlive: KeepAlive,
) {
  const user = await account(deps, userId);
  if (user.is_guest)
    throw forbidden("Guests have no e-mail address; register first", "guest_not_allowed");
  if (!user.password_hash) checkFirstPassword(user, input);
  else if (!(await deps.passwords.verify(user.password_hash, input.password))) {
    throw validationError(
      [{ loc: ["body", "password"], msg: "Password is incorrect", type: "value_error" }],
      "Password is incorrect",
    );
  }
  if (input.new_email === user.email) {
    throw validationError(
      [{ loc: ["body", "new_email"], msg: "This is already your address", type: "value_error" }],
      "This is already your address",
    );
  }
  const taken = await findUserByEmail(deps.db, { email: input.new_email });
  if (taken) throw conflict("An account with this email already exists");
  // A first password: the caller proves again that they are the WeChat user (ADR 0089).
  const firstPassword = user.password_hash
    ? null
    : await confirmWechatOwner(deps, user, input.wechat_code!).then(() =>
        deps.passwords.hash(input.password),
      );
  const issued = await issueToken(
    deps,
    "change_email",
    mailTargets.newAddress(userId, input.new_email),
    TOKEN_TTL_MINUTES.change_email,
    firstPassword,
  );
  if (!issued) throw unauthorized("Account is not active");
  // The token was issued for the new address: the link goes there.
  mailLink(deps, linkOf("change_email"), issued, keepAlive);
  if (user.email) {
    sendInBackground(
      deps,
      { to: user.email, ...emailChangeNoticeMail(input.new_email) },
      { userId, mail: "change_email_notice" },
      keepAlive,
    );
  }
  return { firstPassword: firstPassword !== null };
}

/** The length rule of a first password: register's (auth/schemas.ts RegisterBody). */
const FIRST_PASSWORD_MIN = 6;

/**
 * POST /auth/email on an account without a password (WeChat sign-in, ADR 0089): `password` is
 * the first password, held by the change link until the address is verified, and the request
 * carries a fresh WeChat code (`wechat_code`): a stolen session alone must not give an account
 * the thief's address and password, which its owner could then neither see nor undo.
 */
function checkFirstPassword(
  user: AccountRow,
  input: { password: string; wechat_code?: string | undefined },
) {
  if (!user.wechat_openid) {
    throw forbidden("This account has no password and no WeChat sign-in to confirm it is you");
  }
  const issues: ValidationIssue[] = [];
  if (input.password.length < FIRST_PASSWORD_MIN) {
    issues.push({
      loc: ["body", "password"],
      msg: `Choose a password of at least ${FIRST_PASSWORD_MIN} characters: this account has none yet`,
      type: "value_error",
    });
  }
  if (!input.wechat_code) {
    issues.push({
      loc: ["body", "wechat_code"],
      msg: "Confirm with WeChat: send a fresh WeChat login code with the first password",
      type: "missing",
    });
  }
  if (issues.length > 0) throw validationError(issues, issues[0]!.msg);
}

/** The fresh WeChat code must belong to the account's own WeChat user. */
async function confirmWechatOwner(deps: Deps, user: AccountRow, code: string) {
  if (!deps.wechat) throw unavailable("WeChat login is not configured");
  let openid: string;
  try {
    openid = (await deps.wechat.exchangeCode(code)).openid;
  } catch (error) {
    if (error instanceof WechatAuthError) {
      throw validationError(
        [{ loc: ["body", "wechat_code"], msg: error.message, type: "value_error" }],
        "The WeChat code is invalid or expired; ask WeChat for a new one",
      );
    }
    deps.logger.warn("wechat exchange failed", { error: String(error) });
    throw unavailable("WeChat is unreachable, try again shortly");
  }
  if (openid !== user.wechat_openid) {
    throw forbidden("This WeChat code belongs to another WeChat user than this account's");
  }
}
