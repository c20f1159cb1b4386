import { pgConstraint, pgErrorCode } from "../../db/client";
import { ipRateLimitKey } from "../../http/client-ip";
import {
  ApiError,
  conflict,
  forbidden,
  unauthorized,
  unavailable,
  validationError,
} from "../../http/errors";
import { nowIso } from "../../lib/clock";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { HasherBusyError, needsRehash } from "../../lib/password";
import type { Deps } from "../../ports";
import { WechatAuthError } from "../../providers/messaging/wechat";
import type { UserRow } from "../users/queries";
import {
  claimLoginAttempt,
  findActivePasswordHash,
  findReferrer,
  findWechatUserStatus,
  LOGIN_THROTTLE,
  releaseLoginAttempt,
  replacePasswordHash,
} from "../users/queries/sign-in";
import * as queries from "./queries";
import { noteSessionEnded } from "./revocations";
import { signAccessToken } from "./tokens";

/** The paid tier a trial gives access to until trial_ends_at. */
const TRIAL_PLAN = "pro";
const REFERRAL_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export interface IssuedSession {
  user: UserRow;
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  expiresIn: number;
  refreshMaxAgeSeconds: number;
}

interface NewRefreshToken extends queries.RefreshTokenRow {
  token: string;
}

function referralCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => REFERRAL_ALPHABET[b % REFERRAL_ALPHABET.length]).join("");
}

async function newRefreshToken(deps: Deps, familyId = deps.ids.uuid()): Promise<NewRefreshToken> {
  const token = randomToken(32);
  const ttlMs = deps.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000;
  return {
    token,
    hash: await sha256Hex(token),
    familyId,
    expiresAt: new Date(deps.clock.now().getTime() + ttlMs).toISOString(),
  };
}

async function issue(deps: Deps, user: UserRow, refresh: NewRefreshToken): Promise<IssuedSession> {
  const accessToken = await signAccessToken(deps, {
    userId: user.id,
    sessionId: refresh.familyId,
    role: user.role,
    isGuest: user.is_guest,
  });
  return {
    user,
    accessToken,
    refreshToken: refresh.token,
    sessionId: refresh.familyId,
    expiresIn: deps.config.ACCESS_TOKEN_TTL_SECONDS,
    refreshMaxAgeSeconds: deps.config.REFRESH_TOKEN_TTL_DAYS * 86_400,
  };
}

async function referrerId(deps: Deps, code: string | undefined): Promise<string | null> {
  if (!code) return null;
  const row = await findReferrer(deps.db, { code: code.toUpperCase() });
  if (!row) {
    throw validationError(
      [{ loc: ["body", "referral_code"], msg: "Unknown referral code", type: "value_error" }],
      "Unknown referral code",
    );
  }
  return row.id;
}

/** Retries a statement whose random referral code collided (1 in 10^12 per pair). */
async function withFreshReferralCode<T>(run: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(referralCode());
    } catch (error) {
      const collided =
        pgErrorCode(error) === "23505" && pgConstraint(error) === "users_referral_code_key";
      if (!collided || attempt >= 3) throw error;
    }
  }
}

export interface RegisterInput {
  email: string;
  password: string;
  name?: string;
  referral_code?: string;
}

/** The guest a register or login request came with (its own verified access token). */
export interface GuestCaller {
  userId: string;
  sessionId: string;
}

/**
 * One statement creates the user on the trial, grants the registration credits with their
 * ledger row, opens the session and writes the usage log: it all happens or none of it. A
 * referral code only records `referred_by`; both parties are rewarded when the new account
 * verifies its address (growth/queries.ts, referralRewardOnVerification).
 *
 * With `guest` (the caller's guest token), the same statement turns that guest row into the
 * account instead of inserting one: same user id, so every row the guest created stays theirs,
 * and the guest's other sessions end. A guest that is no longer a guest (already upgraded) or
 * not active falls back to a plain registration.
 */
export async function registerUser(
  deps: Deps,
  input: RegisterInput,
  ip: string,
  guest?: GuestCaller,
) {
  const referredBy = await referrerId(deps, input.referral_code);
  const passwordHash = await deps.passwords.hash(input.password);
  const refresh = await newRefreshToken(deps);
  const now = nowIso(deps);
  try {
    const row = await withFreshReferralCode((code) =>
      queries.registerAccount(deps.db, {
        guestId: guest?.userId ?? null,
        id: deps.ids.uuid(),
        email: input.email,
        passwordHash,
        name: input.name ?? null,
        plan: TRIAL_PLAN,
        referralCode: code,
        referredBy,
        now,
        refresh,
        ip,
      }),
    );
    if (row.upgraded && guest) noteSessionEnded(deps, guest.sessionId);
    return issue(deps, row, refresh);
  } catch (error) {
    if (pgErrorCode(error) === "23505" && pgConstraint(error) === "users_email_key") {
      throw conflict("An account with this email already exists");
    }
    throw error;
  }
}

// A real argon2id hash of a random password: unknown emails cost as much as wrong passwords.
const dummyHashes = new WeakMap<object, Promise<string>>();
function dummyHash(deps: Deps): Promise<string> {
  let hash = dummyHashes.get(deps.passwords);
  if (!hash) {
    hash = deps.passwords.hash(randomToken(16));
    dummyHashes.set(deps.passwords, hash);
  }
  return hash;
}

// Login throttling lives with the users columns it reads (users/sign-in-queries.ts).
export { LOGIN_THROTTLE };

function accountThrottled(retryAfter: number) {
  const seconds = Math.max(1, retryAfter);
  return new ApiError(
    429,
    `Too many failed sign-ins for this account; try again in ${seconds} second${seconds === 1 ? "" : "s"}`,
    { headers: { "Retry-After": String(seconds) } },
  );
}

/**
 * Password login. One statement reads the account and claims the attempt: it counts it as a
 * failure in advance (failed_login_count + 1) only when the account's delay has passed, so
 * parallel wrong passwords cannot all pass the check; an attempt it refuses is a 429 before any
 * hash runs. A right password resets the count in the statement that opens the session. Unknown
 * e-mails cost a dummy hash (the per-IP budgets cover them).
 *
 * With `guest` (the caller's guest token), the guest's rows move to the account and the guest
 * is disabled, in the statement that opens the session (see openSession).
 */
export async function loginWithPassword(
  deps: Deps,
  input: { email: string; password: string },
  ip: string,
  guest?: GuestCaller,
) {
  const addressHash = await sha256Hex(input.email);
  const claim = await claimLoginAttempt(deps.db, {
    email: input.email,
    addressHash,
    now: nowIso(deps),
    addressKey: ipRateLimitKey(ip),
  });
  // The same 429 whether or not an account has the address (ADR 0084).
  if (!claim.allowed) throw accountThrottled(claim.retry_after ?? 1);
  const user = claim.id === null ? undefined : { ...claim, id: claim.id };
  let valid: boolean;
  try {
    valid = user?.password_hash
      ? await deps.passwords.verify(user.password_hash, input.password)
      : await deps.passwords.verify(await dummyHash(deps), input.password).then(() => false);
  } catch (error) {
    // Shed before verifying: the claimed attempt was never tried, so it is not a failure.
    if (error instanceof HasherBusyError) {
      await releaseLoginAttempt(deps.db, user ? { id: user.id } : { addressHash });
    }
    throw error;
  }
  if (!user || !valid) throw unauthorized("Incorrect email or password");
  if (user.status !== "active") throw forbidden("This account is disabled", "account_disabled");
  const session = await openSession(deps, user.id, "login", ip, guest);
  if (guest && guest.userId !== user.id) noteSessionEnded(deps, guest.sessionId);
  if (user.password_hash && needsRehash(user.password_hash)) {
    await rehashPassword(deps, user.id, user.password_hash, input.password);
  }
  return session;
}

/**
 * A hash made with older parameters than ARGON2_PARAMS is replaced while the password is at
 * hand (the only moment it is): compare-and-set, so a password changed meanwhile is kept. Best
 * effort: the login has succeeded, a failure here only leaves the old hash for the next one.
 */
async function rehashPassword(deps: Deps, userId: string, oldHash: string, password: string) {
  try {
    const fresh = await deps.passwords.hash(password);
    await replacePasswordHash(deps.db, { id: userId, oldHash, newHash: fresh });
  } catch (error) {
    deps.logger.warn("password rehash failed", { user_id: userId, error: String(error) });
  }
}

/**
 * Opens a session for an existing user: token row, usage log, last_login_at and the reset of
 * the failed-login count in one go. With a guest caller, the same statement moves the guest's
 * rows to this account and disables the guest (which ends its sessions, migration 0013).
 */
async function openSession(
  deps: Deps,
  userId: string,
  event: string,
  ip: string,
  guest?: GuestCaller,
) {
  const refresh = await newRefreshToken(deps);
  const row = await queries.openSession(deps.db, {
    userId,
    event,
    ip,
    addressKey: event === "login" ? ipRateLimitKey(ip) : null,
    refresh,
    now: nowIso(deps),
    guestId: guest && guest.userId !== userId ? guest.userId : null,
  });
  if (!row) throw forbidden("This account is disabled", "account_disabled");
  return issue(deps, row, refresh);
}

/** Guests get a UUID identity, no credits and no trial: a look around before registering. */
export async function loginAsGuest(deps: Deps, ip: string) {
  const refresh = await newRefreshToken(deps);
  const row = await withFreshReferralCode((code) =>
    queries.createGuest(deps.db, {
      id: deps.ids.uuid(),
      referralCode: code,
      now: nowIso(deps),
      refresh,
      ip,
    }),
  );
  return issue(deps, row, refresh);
}

/**
 * WeChat login: the code is exchanged for an openid; a first login registers the user with
 * the same trial and credits as an email registration, in one statement.
 *
 * With `guest` (the caller's guest token), as register and login do (ADR 0062, ADR 0089): an
 * openid no account has turns the guest into the WeChat account, keeping its id and rows; an
 * openid that has an account signs into it, and the guest's rows move there as on a password
 * login (the code proves the caller is that WeChat user). A guest a parallel login already
 * upgraded signs into the account it became.
 */
export async function loginWithWechat(deps: Deps, code: string, ip: string, guest?: GuestCaller) {
  if (!deps.wechat) throw unavailable("WeChat login is not configured");
  let identity: { openid: string; unionid?: string };
  try {
    identity = await deps.wechat.exchangeCode(code);
  } catch (error) {
    if (error instanceof WechatAuthError) throw unauthorized(error.message);
    deps.logger.warn("wechat exchange failed", { error: String(error) });
    throw unavailable("WeChat is unreachable, try again shortly");
  }
  if (guest) {
    const session = await wechatGuestSignIn(deps, identity, ip, guest);
    if (session) return session;
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const refresh = await newRefreshToken(deps);
    const now = nowIso(deps);
    const row = await withFreshReferralCode((referral) =>
      queries.wechatSignIn(deps.db, {
        id: deps.ids.uuid(),
        openid: identity.openid,
        unionid: identity.unionid ?? null,
        plan: TRIAL_PLAN,
        referralCode: referral,
        now,
        refresh,
        ip,
      }),
    );
    if (row) return issue(deps, row, refresh);
    // Either the account is disabled, or a parallel first login committed after our snapshot.
    const state = await findWechatUserStatus(deps.db, { openid: identity.openid });
    if (state && state.status !== "active")
      throw forbidden("This account is disabled", "account_disabled");
  }
  throw new ApiError(409, "Login is already in progress, try again");
}

/**
 * The guest branch of a WeChat login: the guest becomes the openid's new account, or its rows
 * move to the openid's existing account. Undefined: neither applies (the guest was upgraded
 * meanwhile, by this openid or by a registration): a plain WeChat login follows.
 */
async function wechatGuestSignIn(
  deps: Deps,
  identity: { openid: string; unionid?: string },
  ip: string,
  guest: GuestCaller,
): Promise<IssuedSession | undefined> {
  const refresh = await newRefreshToken(deps);
  try {
    const row = await queries.wechatUpgradeGuest(deps.db, {
      guestId: guest.userId,
      openid: identity.openid,
      unionid: identity.unionid ?? null,
      plan: TRIAL_PLAN,
      now: nowIso(deps),
      refresh,
      ip,
    });
    if (row) {
      noteSessionEnded(deps, guest.sessionId);
      return issue(deps, row, refresh);
    }
  } catch (error) {
    // A parallel login gave the openid to another row first: it has an account now.
    const taken =
      pgErrorCode(error) === "23505" && pgConstraint(error) === "users_wechat_openid_key";
    if (!taken) throw error;
  }
  const owner = await findWechatUserStatus(deps.db, { openid: identity.openid });
  if (!owner || owner.id === guest.userId) return undefined;
  if (owner.status !== "active") throw forbidden("This account is disabled", "account_disabled");
  const session = await openSession(deps, owner.id, "wechat_login", ip, guest);
  noteSessionEnded(deps, guest.sessionId);
  return session;
}

/**
 * Rotates a refresh token in one statement. A token that was already rotated is a replay:
 * its whole family (every session descended from that login) is revoked.
 */
export async function refreshSession(deps: Deps, token: string) {
  const hash = await sha256Hex(token);
  const now = nowIso(deps);
  const refresh = await newRefreshToken(deps);
  const row = await queries.rotateRefreshToken(deps.db, {
    hash,
    now,
    fresh: { hash: refresh.hash, expiresAt: refresh.expiresAt },
  });
  if (!row) throw unauthorized("Refresh token expired, revoked or already used");
  return issue(deps, row, { ...refresh, familyId: row.session_id });
}

export async function logout(deps: Deps, sessionId: string) {
  await queries.revokeSession(deps.db, { sessionId, now: nowIso(deps) });
  // The trigger records it for every instance; this one refuses the token from now on.
  noteSessionEnded(deps, sessionId);
}

/** Changes the password and signs out every other session, in one statement. */
export async function changePassword(
  deps: Deps,
  auth: { userId: string; sessionId: string; isGuest?: boolean },
  input: { old_password?: string | undefined; new_password: string },
) {
  const user = await findActivePasswordHash(deps.db, { id: auth.userId });
  if (!user) throw unauthorized("Account is not active");
  if (auth.isGuest) throw forbidden("Guests have no password; register first", "guest_not_allowed");
  if (!user.password_hash) {
    // A password alone signs nobody in: the first one comes with an address (ADR 0089).
    throw forbidden(
      "This account has no password yet: set the first one together with an e-mail address " +
        "through POST /api/v1/auth/email",
    );
  }
  if (input.old_password === undefined) {
    throw validationError(
      [{ loc: ["body", "old_password"], msg: "Enter your current password", type: "missing" }],
      "Enter your current password",
    );
  }
  if (!(await deps.passwords.verify(user.password_hash, input.old_password))) {
    throw validationError(
      [
        {
          loc: ["body", "old_password"],
          msg: "Current password is incorrect",
          type: "value_error",
        },
      ],
      "Current password is incorrect",
    );
  }
  const newHash = await deps.passwords.hash(input.new_password);
  const revoked = await queries.changePassword(deps.db, {
    userId: auth.userId,
    sessionId: auth.sessionId,
    passwordHash: newHash,
    now: nowIso(deps),
  });
  return { revokedSessions: revoked };
}
