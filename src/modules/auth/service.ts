import { type SQL, sql } from "drizzle-orm";
import { pgConstraint, pgErrorCode, queryRows } from "../../db/client";
import type { Deps } from "../../deps";
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
import { WechatAuthError } from "../../providers/messaging/wechat";
import type { UserRow } from "../users/service";
import { noteSessionEnded } from "./revocations";
import { signAccessToken } from "./tokens";

/** Registration grant (spec section 5): free-trial credits that go through the ledger. */
const REGISTRATION_CREDITS = 30;
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
 * The registration grant inside a registration statement: a lot of REGISTRATION_CREDITS that
 * never expires and its ledger row, for the user_credits row the statement's `credits` CTE
 * created or topped up (`balance` is the balance after the grant).
 */
function registrationGrant(creditsCte: string): SQL {
  const from = sql.raw(creditsCte);
  return sql`lot as (
      insert into credit_lots (user_id, kind, granted, remaining, source_type, source_id)
      select user_id, 'registration_grant', ${REGISTRATION_CREDITS}::int,
             ${REGISTRATION_CREDITS}::int, 'user', user_id::text from ${from}
      returning id, user_id),
    ledger as (
      insert into credit_ledger (user_id, delta, balance_after, kind, source_type, source_id, lots, note)
      select c.user_id, ${REGISTRATION_CREDITS}::int, c.balance, 'registration_grant', 'user',
             c.user_id::text,
             jsonb_build_array(jsonb_build_object('lot_id', lot.id, 'amount', ${REGISTRATION_CREDITS}::int)),
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

/** The guest a register or login request came with (its own verified access token). */
export interface GuestCaller {
  userId: string;
  sessionId: string;
}

/**
 * One statement creates the user on the trial, grants the registration credits with their
 * ledger row, opens the session and writes the usage log: it all happens or none of it. A
 * referral code only records `referred_by`; both parties are rewarded when the new account
 * verifies its address (growth/referrals.ts).
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
  const at = sql`${now}::timestamptz`;
  try {
    const row = await withFreshReferralCode(async (code) => {
      const [created] = await queryRows<UserRow & { upgraded: boolean }>(
        deps.db,
        sql`with upgraded as (
            update users g set email = ${input.email}, password_hash = ${passwordHash},
              name = ${input.name ?? null}, is_guest = false, plan = ${TRIAL_PLAN},
              plan_expires_at = ${trialEnds(now)}, trial_ends_at = ${trialEnds(now)},
              referred_by = ${referredBy}::uuid, last_login_at = ${at}, updated_at = ${at}
            where g.id = ${guest?.userId ?? null}::uuid and g.is_guest and g.status = 'active'
            returning *),
          inserted as (
            insert into users (id, email, password_hash, name, role, plan, plan_expires_at,
                               trial_ends_at, referral_code, referred_by, last_login_at)
            select ${deps.ids.uuid()}::uuid, ${input.email}::text, ${passwordHash}::text,
                   ${input.name ?? null}::text, 'user', ${TRIAL_PLAN}::text, ${trialEnds(now)},
                   ${trialEnds(now)}, ${code}::text,
                   ${referredBy}::uuid, ${at}
            where not exists (select 1 from upgraded)
            returning *),
          new_user as (select * from upgraded union all select * from inserted),
          credits as (
            insert into user_credits (user_id, balance)
            select id, ${REGISTRATION_CREDITS}::int from new_user
            on conflict (user_id) do update
              set balance = user_credits.balance + excluded.balance, updated_at = ${at}
            returning user_id, balance),
          guest_sessions as (
            update refresh_tokens set revoked_at = ${at}
            where user_id in (select id from upgraded) and revoked_at is null),
          ${registrationGrant("credits")},
          ${sessionAndUsage("new_user", refresh, "register", ip)}
        select new_user.*, credits.balance as credits,
          exists (select 1 from upgraded) as upgraded
        from new_user, credits`,
      );
      return created!;
    });
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

/**
 * Per-account login throttling (docs/adr/0061-per-account-login-delay.md): the first
 * FREE_FAILURES wrong passwords cost nothing; after that each attempt must wait a delay that
 * starts at 1 s and doubles with every further failure, up to MAX_DELAY_SECONDS. A success
 * resets it; failures older than FAILURES_FORGOTTEN_AFTER are forgotten. Never a lockout: the
 * next attempt is always at most MAX_DELAY_SECONDS away, and refused attempts do not lengthen
 * the delay.
 */
export const LOGIN_THROTTLE = {
  FREE_FAILURES: 5,
  MAX_DELAY_SECONDS: 900,
  FAILURES_FORGOTTEN_AFTER: "24 hours",
} as const;

/** The wait after `count` failures: 0 within the free allowance, then 1, 2, 4 ... s, capped. */
const failureDelay = (count: SQL) =>
  sql`make_interval(secs => case when ${count} < ${LOGIN_THROTTLE.FREE_FAILURES} then 0
    else least(${LOGIN_THROTTLE.MAX_DELAY_SECONDS},
               power(2, least(${count} - ${LOGIN_THROTTLE.FREE_FAILURES}, 20))) end)`;

/** Whether a users row (alias `u`) may try a password at `at`. */
const attemptAllowed = (at: SQL) =>
  sql`(u.failed_login_count < ${LOGIN_THROTTLE.FREE_FAILURES} or u.last_failed_login_at is null
    or u.last_failed_login_at <= ${at} - ${LOGIN_THROTTLE.FAILURES_FORGOTTEN_AFTER}::interval
    or u.last_failed_login_at + ${failureDelay(sql`u.failed_login_count`)} <= ${at})`;

/** How many recent password-login addresses an account remembers. */
const KNOWN_ADDRESSES = 5;

/** After a password login, its address first among the account's known ones. */
const knownAddresses = (event: string, ip: string) => {
  if (event !== "login") return sql`login_addresses`;
  const key = ipRateLimitKey(ip);
  return sql`(array[${key}]::text[] || array_remove(login_addresses, ${key}))[1:${sql.raw(String(KNOWN_ADDRESSES))}]`;
};

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
  const at = sql`${nowIso(deps)}::timestamptz`;
  const [user] = await queryRows<{
    id: string;
    password_hash: string | null;
    status: string;
    allowed: boolean;
    retry_after: number | null;
  }>(
    deps.db,
    sql`with target as (
        select id, password_hash, status, failed_login_count, last_failed_login_at
        from users where email = ${input.email}),
      claimed as (
        update users u set
          failed_login_count = case
            when u.last_failed_login_at is null
              or u.last_failed_login_at <= ${at} - ${LOGIN_THROTTLE.FAILURES_FORGOTTEN_AFTER}::interval
            then 1 else u.failed_login_count + 1 end,
          last_failed_login_at = ${at}
        where u.email = ${input.email}
          and (${attemptAllowed(at)} or ${ipRateLimitKey(ip)} = any(u.login_addresses))
        returning u.id)
      select t.id, t.password_hash, t.status, exists (select 1 from claimed) as allowed,
        ceil(extract(epoch from t.last_failed_login_at
          + ${failureDelay(sql`t.failed_login_count`)} - ${at}))::int as retry_after
      from target t`,
  );
  if (user && !user.allowed) throw accountThrottled(user.retry_after ?? 1);
  let valid: boolean;
  try {
    valid = user?.password_hash
      ? await deps.passwords.verify(user.password_hash, input.password)
      : await deps.passwords.verify(await dummyHash(deps), input.password).then(() => false);
  } catch (error) {
    // Shed before verifying: the claimed attempt was never tried, so it is not a failure.
    if (user && error instanceof HasherBusyError) {
      await deps.db.execute(
        sql`update users set failed_login_count = failed_login_count - 1
            where id = ${user.id} and failed_login_count > 0`,
      );
    }
    throw error;
  }
  if (!user || !valid) throw unauthorized("Incorrect email or password");
  if (user.status !== "active") throw forbidden("This account is disabled");
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
    await deps.db.execute(
      sql`update users set password_hash = ${fresh}
          where id = ${userId} and password_hash = ${oldHash}`,
    );
  } catch (error) {
    deps.logger.warn("password rehash failed", { user_id: userId, error: String(error) });
  }
}

/**
 * Tables whose rows a guest creates, moved to the account when a guest signs in to one; each
 * entry is the SET clause beyond user_id (a unique key that would collide is resolved).
 */
function guestRowMoves(guestCte: string, userId: string): SQL {
  const guestIds = sql`(select id from ${sql.raw(guestCte)})`;
  const plain = [
    "customers",
    "followup_logs",
    "discovery_records",
    "agent_pipelines",
    "ai_conversations",
    "ai_messages",
    "translations",
    "marketing_contents",
    "marketing_events",
    "usage_logs",
  ];
  const moves = plain.map(
    (table) => sql`${sql.raw(`moved_${table}`)} as (
      update ${sql.raw(table)} set user_id = ${userId}::uuid where user_id in ${guestIds})`,
  );
  moves.push(
    // A SKU the account already uses is dropped from the moved product (unique per user).
    sql`moved_products as (
      update products p set user_id = ${userId}::uuid,
        sku = case when exists (select 1 from products a
                                where a.user_id = ${userId}::uuid and a.sku = p.sku)
              then null else p.sku end
      where p.user_id in ${guestIds})`,
    // Quotation numbers are per user: a moved number the account already has gets a suffix.
    sql`moved_quotations as (
      update quotations q set user_id = ${userId}::uuid,
        quote_no = case when exists (select 1 from quotations a
                                     where a.user_id = ${userId}::uuid and a.quote_no = q.quote_no)
                   then q.quote_no || '-G' || upper(right(replace(q.id::text, '-', ''), 6))
                   else q.quote_no end
      where q.user_id in ${guestIds})`,
    sql`moved_notifications as (
      update notifications n set user_id = ${userId}::uuid,
        dedupe_key = case when exists (select 1 from notifications a
                                       where a.user_id = ${userId}::uuid
                                         and a.dedupe_key = n.dedupe_key)
                     then null else n.dedupe_key end
      where n.user_id in ${guestIds})`,
  );
  return sql.join(moves, sql`, `);
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
  const at = sql`${nowIso(deps)}::timestamptz`;
  const merge =
    guest && guest.userId !== userId
      ? sql`, guest as (
            update users g set status = 'disabled', updated_at = ${at}
            where g.id = ${guest.userId}::uuid and g.is_guest and g.status = 'active'
              and exists (select 1 from u)
            returning g.id),
          ${guestRowMoves("guest", userId)}`
      : sql``;
  const [row] = await queryRows<UserRow>(
    deps.db,
    sql`with u as (
        update users set last_login_at = ${at}, failed_login_count = 0,
          last_failed_login_at = null, login_addresses = ${knownAddresses(event, ip)}
        where id = ${userId} and status = 'active' returning *),
      ${sessionAndUsage("u", refresh, event, ip)}${merge}
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
        returning id),
      -- Pending reset and e-mail change links die with the old password (an e-mail change
      -- started by someone who knew it must not survive the owner changing it).
      links as (
        update email_tokens set expires_at = ${now}::timestamptz
        where user_id in (select id from changed) and purpose in ('reset_password', 'change_email')
          and used_at is null and expires_at > ${now}::timestamptz)
      select count(*)::int as revoked from revoked`,
  );
  return { revokedSessions: result?.revoked ?? 0 };
}
