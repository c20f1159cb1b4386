import { type SQL, sql } from "drizzle-orm";
import { pgConstraint, pgErrorCode, queryRows } from "../../db/client";
import type { Deps } from "../../deps";
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
import { WechatAuthError } from "../../providers/messaging/wechat";
import { referralBonusInterval, referralCte, referralRewardCtes } from "../growth/referrals";
import type { UserRow } from "../users/service";
import { noteSessionEnded } from "./revocations";
import { signAccessToken } from "./tokens";

/** Registration grant (spec section 5): free-trial credits that go through the ledger. */
export const REGISTRATION_CREDITS = 30;
/** The paid tier a trial gives access to until trial_ends_at. */
export const TRIAL_PLAN = "pro";
const REFERRAL_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export interface IssuedSession {
  user: UserRow;
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  expiresIn: number;
  refreshMaxAgeSeconds: number;
}

interface NewRefreshToken {
  token: string;
  hash: string;
  familyId: string;
  expiresAt: string;
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

/** The statements a login adds to its CTE: a refresh-token row and a usage-log row. */
function sessionAndUsage(source: string, refresh: NewRefreshToken, event: string, ip: string): SQL {
  const from = sql.raw(source);
  return sql`session as (
      insert into refresh_tokens (user_id, family_id, token_hash, expires_at)
      select id, ${refresh.familyId}, ${refresh.hash}, ${refresh.expiresAt}::timestamptz from ${from}),
    usage as (
      insert into usage_logs (user_id, event, ip) select id, ${event}, ${ip} from ${from})`;
}

/**
 * The registration grant inside a registration statement: a lot that never expires and its
 * ledger row, for the user_credits row the statement's `credits` CTE created.
 */
function registrationGrant(creditsCte: string): SQL {
  const from = sql.raw(creditsCte);
  return sql`lot as (
      insert into credit_lots (user_id, kind, granted, remaining, source_type, source_id)
      select user_id, 'registration_grant', balance, balance, 'user', user_id::text from ${from}
      returning id, user_id),
    ledger as (
      insert into credit_ledger (user_id, delta, balance_after, kind, source_type, source_id, lots, note)
      select c.user_id, c.balance, c.balance, 'registration_grant', 'user', c.user_id::text,
             jsonb_build_array(jsonb_build_object('lot_id', lot.id, 'amount', c.balance)),
             'Free-trial credits on registration'
      from ${from} c join lot on lot.user_id = c.user_id)`;
}

/** Trial end from the `trial.days` system config, computed inside the statement. */
const trialEnds = (now: string) =>
  sql`${now}::timestamptz + make_interval(days => coalesce(
    (select (value #>> '{}')::int from system_config where key = 'trial.days'), 7))`;

async function referrerId(deps: Deps, code: string | undefined): Promise<string | null> {
  if (!code) return null;
  const [row] = await queryRows<{ id: string }>(
    deps.db,
    sql`select id from users where referral_code = ${code.toUpperCase()} and not is_guest`,
  );
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

/**
 * One statement creates the user on the trial, grants the registration credits with their
 * ledger row, opens the session and writes the usage log, and with a referral code rewards
 * both parties (see growth/referrals.ts): it all happens or none of it.
 */
export async function registerUser(deps: Deps, input: RegisterInput, ip: string) {
  const referredBy = await referrerId(deps, input.referral_code);
  const passwordHash = await deps.passwords.hash(input.password);
  const refresh = await newRefreshToken(deps);
  const now = nowIso(deps);
  try {
    const row = await withFreshReferralCode(async (code) => {
      const [created] = await queryRows<UserRow>(
        deps.db,
        sql`with ${referralCte(referredBy)},
          new_user as (
            insert into users (id, email, password_hash, name, role, plan, plan_expires_at,
                               trial_ends_at, referral_code, referred_by, last_login_at)
            values (${deps.ids.uuid()}, ${input.email}, ${passwordHash}, ${input.name ?? null},
                    'user', ${TRIAL_PLAN}, ${trialEnds(now)} + ${referralBonusInterval},
                    ${trialEnds(now)}, ${code}, ${referredBy}, ${now}::timestamptz)
            returning *),
          credits as (
            insert into user_credits (user_id, balance)
            select id, ${REGISTRATION_CREDITS} from new_user returning user_id, balance),
          ${registrationGrant("credits")},
          ${sessionAndUsage("new_user", refresh, "register", ip)},
          ${referralRewardCtes("new_user", now)}
        select new_user.*, credits.balance as credits from new_user, credits`,
      );
      return created!;
    });
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

export async function loginWithPassword(
  deps: Deps,
  input: { email: string; password: string },
  ip: string,
) {
  const [user] = await queryRows<Pick<UserRow, "id" | "password_hash" | "status">>(
    deps.db,
    sql`select id, password_hash, status from users where email = ${input.email}`,
  );
  const valid = user?.password_hash
    ? await deps.passwords.verify(user.password_hash, input.password)
    : await deps.passwords.verify(await dummyHash(deps), input.password).then(() => false);
  if (!user || !valid) throw unauthorized("Incorrect email or password");
  if (user.status !== "active") throw forbidden("This account is disabled");
  return openSession(deps, user.id, "login", ip);
}

/** Opens a session for an existing user: token row, usage log and last_login_at in one go. */
async function openSession(deps: Deps, userId: string, event: string, ip: string) {
  const refresh = await newRefreshToken(deps);
  const [row] = await queryRows<UserRow>(
    deps.db,
    sql`with u as (
        update users set last_login_at = ${nowIso(deps)}::timestamptz
        where id = ${userId} and status = 'active' returning *),
      ${sessionAndUsage("u", refresh, event, ip)}
      select u.*, c.balance as credits from u left join user_credits c on c.user_id = u.id`,
  );
  if (!row) throw forbidden("This account is disabled");
  return issue(deps, row, refresh);
}

/** Guests get a UUID identity, no credits and no trial: a look around before registering. */
export async function loginAsGuest(deps: Deps, ip: string) {
  const refresh = await newRefreshToken(deps);
  const row = await withFreshReferralCode(async (code) => {
    const [created] = await queryRows<UserRow>(
      deps.db,
      sql`with u as (
          insert into users (id, name, is_guest, referral_code, last_login_at)
          values (${deps.ids.uuid()}, 'Guest', true, ${code}, ${nowIso(deps)}::timestamptz)
          returning *),
        credits as (insert into user_credits (user_id, balance) select id, 0 from u),
        ${sessionAndUsage("u", refresh, "guest_login", ip)}
        select u.*, 0 as credits from u`,
    );
    return created!;
  });
  return issue(deps, row, refresh);
}

/**
 * WeChat login: the code is exchanged for an openid; a first login registers the user with
 * the same trial and credits as an email registration, in one statement.
 */
export async function loginWithWechat(deps: Deps, code: string, ip: string) {
  if (!deps.wechat) throw unavailable("WeChat login is not configured");
  let identity: { openid: string; unionid?: string };
  try {
    identity = await deps.wechat.exchangeCode(code);
  } catch (error) {
    if (error instanceof WechatAuthError) throw unauthorized(error.message);
    deps.logger.warn("wechat exchange failed", { error: String(error) });
    throw unavailable("WeChat is unreachable, try again shortly");
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const refresh = await newRefreshToken(deps);
    const now = nowIso(deps);
    const row = await withFreshReferralCode(async (referral) => {
      const [found] = await queryRows<UserRow & { created: boolean }>(
        deps.db,
        sql`with ins as (
            insert into users (id, name, wechat_openid, wechat_unionid, plan, plan_expires_at,
                               trial_ends_at, referral_code, last_login_at)
            values (${deps.ids.uuid()}, 'WeChat user', ${identity.openid}, ${identity.unionid ?? null},
                    ${TRIAL_PLAN}, ${trialEnds(now)}, ${trialEnds(now)}, ${referral}, ${now}::timestamptz)
            on conflict (wechat_openid) do nothing
            returning *),
          existing as (
            update users set last_login_at = ${now}::timestamptz
            where wechat_openid = ${identity.openid} and status = 'active'
              and not exists (select 1 from ins) returning *),
          u as (select * from ins union all select * from existing),
          credits as (
            insert into user_credits (user_id, balance)
            select id, ${REGISTRATION_CREDITS} from ins returning user_id, balance),
          ${registrationGrant("credits")},
          ${sessionAndUsage("u", refresh, "wechat_login", ip)}
        select u.*, exists (select 1 from ins) as created,
          coalesce((select balance from credits),
                   (select balance from user_credits where user_id = u.id)) as credits
        from u`,
      );
      return found;
    });
    if (row) return issue(deps, row, refresh);
    // Either the account is disabled, or a parallel first login committed after our snapshot.
    const [state] = await queryRows<{ status: string }>(
      deps.db,
      sql`select status from users where wechat_openid = ${identity.openid}`,
    );
    if (state && state.status !== "active") throw forbidden("This account is disabled");
  }
  throw new ApiError(409, "Login is already in progress, try again");
}

/**
 * Rotates a refresh token in one statement. A token that was already rotated is a replay:
 * its whole family (every session descended from that login) is revoked.
 */
export async function refreshSession(deps: Deps, token: string) {
  const hash = await sha256Hex(token);
  const now = nowIso(deps);
  const refresh = await newRefreshToken(deps);
  const [row] = await queryRows<UserRow & { session_id: string }>(
    deps.db,
    sql`with old as (
        select id, user_id, family_id, rotated_at from refresh_tokens where token_hash = ${hash}),
      rotated as (
        update refresh_tokens r set rotated_at = ${now}::timestamptz from old
        where r.id = old.id and r.rotated_at is null and r.revoked_at is null
          and r.expires_at > ${now}::timestamptz
        returning r.user_id, r.family_id),
      revoked as (
        update refresh_tokens r set revoked_at = ${now}::timestamptz from old
        where old.rotated_at is not null and r.family_id = old.family_id and r.revoked_at is null
        returning r.id),
      fresh as (
        insert into refresh_tokens (user_id, family_id, token_hash, expires_at)
        select rotated.user_id, rotated.family_id, ${refresh.hash}, ${refresh.expiresAt}::timestamptz
        from rotated join users u on u.id = rotated.user_id and u.status = 'active'
        returning user_id, family_id)
      select u.*, c.balance as credits, fresh.family_id as session_id
      from fresh join users u on u.id = fresh.user_id
      left join user_credits c on c.user_id = u.id`,
  );
  if (!row) throw unauthorized("Refresh token expired, revoked or already used");
  return issue(deps, row, { ...refresh, familyId: row.session_id });
}

export async function logout(deps: Deps, sessionId: string) {
  await deps.db.execute(
    sql`update refresh_tokens set revoked_at = ${nowIso(deps)}::timestamptz
        where family_id = ${sessionId} and revoked_at is null`,
  );
  // The trigger records it for every instance; this one refuses the token from now on.
  noteSessionEnded(deps, sessionId);
}

/** Changes the password and signs out every other session, in one statement. */
export async function changePassword(
  deps: Deps,
  auth: { userId: string; sessionId: string },
  input: { old_password: string; new_password: string },
) {
  const [user] = await queryRows<{ password_hash: string | null }>(
    deps.db,
    sql`select password_hash from users where id = ${auth.userId} and status = 'active'`,
  );
  if (!user) throw unauthorized("Account is not active");
  if (!user.password_hash) throw forbidden("This account has no password to change");
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
  const now = nowIso(deps);
  const [result] = await queryRows<{ revoked: number }>(
    deps.db,
    sql`with changed as (
        update users set password_hash = ${newHash}, updated_at = ${now}::timestamptz
        where id = ${auth.userId} returning id),
      revoked as (
        update refresh_tokens set revoked_at = ${now}::timestamptz
        where user_id in (select id from changed) and family_id <> ${auth.sessionId}
          and revoked_at is null
        returning id)
      select count(*)::int as revoked from revoked`,
  );
  return { revokedSessions: result?.revoked ?? 0 };
}
