import { eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { defineCte } from "../../../db/cte";
import { orgMembers, orgs, unknownLoginFailures, users } from "../../../db/schema";
import { col, columnNames, type DbRow } from "../../../db/sql";
import { trialOrgCtes, upgradedGuestOrgCte } from "../../orgs/queries/plan";

/**
 * The users rows that sign-in and registration (src/modules/auth) read and write: plain
 * queries, and CTE fragments that auth's statements embed so a session opens with its user
 * change in one statement.
 */

const u = alias(users, "u");

/** The role and status as stored now (requireAdmin: rights come from here only). */
export async function getUserStanding(db: Db, { id }: { id: string }) {
  const [user] = await db
    .select({ role: users.role, status: users.status })
    .from(users)
    .where(eq(users.id, id));
  return user;
}

/** The registered (non-guest) account a referral code belongs to. */
export async function findReferrer(db: Db, { code }: { code: string }) {
  const [row] = await queryRows<Pick<DbRow<typeof users>, "id">>(
    db,
    sql`select ${users.id} from ${users}
        where ${users.referralCode} = ${code} and not ${users.isGuest}`,
  );
  return row;
}

/**
 * The plan, its end and the trial end as select items (`plan`, `plan_expires_at`,
 * `trial_ends_at`), read from the organisation of the user `userId` (an SQL expression): every
 * user row these fragments return carries its organisation's plan, as the users row did before
 * the plan moved to the organisation (issue #22).
 */
export function orgPlanColumns(userId: SQL): SQL {
  const m = alias(orgMembers, "pm");
  const o = alias(orgs, "po");
  const of = (column: SQL) =>
    sql`(select ${column} from ${orgMembers} ${m} join ${orgs} ${o} on ${o.id} = ${m.orgId}
      where ${m.userId} = ${userId})`;
  return sql`${of(sql`${o.plan}`)} as plan, ${of(sql`${o.planExpiresAt}`)} as plan_expires_at,
    ${of(sql`${o.trialEndsAt}`)} as trial_ends_at`;
}

/** A users CTE's rows (`users`) with their organisation's plan columns from CTE `plans`. */
const withPlans = (usersCte: string, plans: string) =>
  sql`select x.*, y.plan, y.plan_expires_at, y.trial_ends_at
    from ${sql.identifier(usersCte)} x join ${sql.identifier(plans)} y on y.user_id = x.id`;

// The CTEs of these fragments that modules/auth's sign-in statements read (ADR 0096). Each is a
// user row (`returning *`) with its organisation's plan columns (orgPlanColumns); readers name
// its `id` and take the rest as `.all`.
/** The guest made an account in place (registration, or a WeChat login with a guest token). */
export const upgradedGuest = defineCte("upgraded", ["id"]);
/** The account a registration made: the upgraded guest, or else the inserted user. */
export const registeredUser = defineCte("new_user", ["id"]);
/** The user a login, guest login or WeChat login signs in. */
export const signedInUser = defineCte("u", ["id"]);
/** A first WeChat login's new user (empty for a later login). */
export const wechatInsertedUser = defineCte("ins", ["id"]);
/** The guest a login with a guest token disabled. */
export const disabledGuest = defineCte("guest", ["id"]);
/** The user whose password a password change set. */
export const changedPasswordUser = defineCte("changed", ["id"]);

const insertedUser = defineCte("inserted");
const existingUser = defineCte("existing");

/**
 * CTEs of a registration: the caller's active guest row (`guestId`) becomes the account and its
 * organisation gets the trial (`upgraded_user`, `upgraded_org`, `upgraded`), or else a new
 * account is inserted with its organisation on the trial (`inserted`, `inserted_org`);
 * `new_user` is the one, with its organisation's plan columns.
 */
export function registeredUserCtes(p: {
  guestId: string | null;
  id: string;
  email: string;
  passwordHash: string;
  name: string | null;
  plan: string;
  referralCode: string;
  referredBy: string | null;
  now: string;
}): SQL {
  const at = sql`${p.now}::timestamptz`;
  const g = alias(users, "g");
  return sql`upgraded_user as (
      update ${users} ${g} set ${col(g.email)} = ${p.email}, ${col(g.passwordHash)} = ${p.passwordHash},
        ${col(g.name)} = ${p.name}, ${col(g.isGuest)} = false,
        ${col(g.referredBy)} = ${p.referredBy}::uuid, ${col(g.lastLoginAt)} = ${at},
        ${col(g.updatedAt)} = ${at}
      where ${g.id} = ${p.guestId}::uuid and ${g.isGuest} and ${g.status} = 'active'
      returning *),
    ${upgradedGuestOrgCte({ name: "upgraded_org", users: "upgraded_user", plan: p.plan, now: p.now })},
    ${upgradedGuest.as(withPlans("upgraded_user", "upgraded_org"))},
    ${insertedUser.as(sql`
      insert into ${users} (${columnNames([
        users.id,
        users.email,
        users.passwordHash,
        users.name,
        users.role,
        users.referralCode,
        users.referredBy,
        users.lastLoginAt,
      ])})
      select ${p.id}::uuid, ${p.email}::text, ${p.passwordHash}::text,
             ${p.name}::text, 'user', ${p.referralCode}::text,
             ${p.referredBy}::uuid, ${at}
      where not exists (select 1 from upgraded_user)
      returning *`)},
    ${trialOrgCtes({ name: "inserted_org", users: "inserted", plan: p.plan, now: p.now })},
    ${registeredUser.as(sql`select * from ${upgradedGuest}
      union all ${withPlans("inserted", "inserted_org")}`)}`;
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

/** Whether a row with `count` failures, the last at `last`, may try a password at `at`. */
const failureAllowed = (at: SQL, count: SQL, last: SQL) =>
  sql`(${count} < ${LOGIN_THROTTLE.FREE_FAILURES} or ${last} is null
    or ${last} <= ${at} - ${LOGIN_THROTTLE.FAILURES_FORGOTTEN_AFTER}::interval
    or ${last} + ${failureDelay(count)} <= ${at})`;

/** Whether the users row `u` may try a password at `at`. */
const attemptAllowed = (at: SQL) =>
  failureAllowed(at, sql`${u.failedLoginCount}`, sql`${u.lastFailedLoginAt}`);

/**
 * Reads the account of a password login and claims the attempt: counts it as a failure in
 * advance only when the account's delay has passed (or `addressKey` is one of its known login
 * addresses). `allowed` false: refused, `retry_after` seconds to wait.
 *
 * An address no account has gets the same delay from its row in unknown_login_failures (keyed
 * by `addressHash`, the address's SHA-256), claimed by the same rule in the same statement, so
 * the throttled answer and its timing are alike whether or not the account exists (ADR 0084).
 * Always one row; `id` is null when no account has the address.
 */
export async function claimLoginAttempt(
  db: Db,
  {
    email,
    addressHash,
    now,
    addressKey,
  }: { email: string; addressHash: string; now: string; addressKey: string },
) {
  const at = sql`${now}::timestamptz`;
  const f = unknownLoginFailures;
  const forgotten = (last: SQL) =>
    sql`(${last} <= ${at} - ${LOGIN_THROTTLE.FAILURES_FORGOTTEN_AFTER}::interval)`;
  const [row] = await queryRows<{
    id: DbRow<typeof users>["id"] | null;
    password_hash: DbRow<typeof users>["password_hash"];
    status: DbRow<typeof users>["status"] | null;
    allowed: boolean;
    retry_after: number | null;
  }>(
    db,
    sql`with target as (
        select ${users.id}, ${users.passwordHash}, ${users.status}, ${users.failedLoginCount},
          ${users.lastFailedLoginAt}
        from ${users} where ${users.email} = ${email}),
      claimed as (
        update ${users} ${u} set
          ${col(u.failedLoginCount)} = case
            when ${u.lastFailedLoginAt} is null or ${forgotten(sql`${u.lastFailedLoginAt}`)}
            then 1 else ${u.failedLoginCount} + 1 end,
          ${col(u.lastFailedLoginAt)} = ${at}
        where ${u.email} = ${email}
          and (${attemptAllowed(at)} or ${addressKey} = any(${u.loginAddresses}))
        returning ${u.id}),
      unknown_before as (
        select ${f.failedLoginCount}, ${f.lastFailedLoginAt} from ${f}
        where ${f.addressHash} = ${addressHash} and not exists (select 1 from target)),
      unknown_claimed as (
        insert into ${f} (${columnNames([f.addressHash, f.failedLoginCount, f.lastFailedLoginAt])})
        select ${addressHash}, 1, ${at} where not exists (select 1 from target)
        on conflict (${col(f.addressHash)}) do update set
          ${col(f.failedLoginCount)} = case when ${forgotten(sql`${f.lastFailedLoginAt}`)}
            then 1 else ${f.failedLoginCount} + 1 end,
          ${col(f.lastFailedLoginAt)} = ${at}
        where ${failureAllowed(at, sql`${f.failedLoginCount}`, sql`${f.lastFailedLoginAt}`)}
        returning 1),
      seen as (
        select t.id, t.password_hash, t.status, t.failed_login_count, t.last_failed_login_at,
          exists (select 1 from claimed) as allowed
        from target t
        union all
        select null, null, null, b.failed_login_count, b.last_failed_login_at,
          exists (select 1 from unknown_claimed)
        from (select 1) one left join unknown_before b on true
        where not exists (select 1 from target))
      select id, password_hash, status, allowed,
        ceil(extract(epoch from last_failed_login_at
          + ${failureDelay(sql`failed_login_count`)} - ${at}))::int as retry_after
      from seen`,
  );
  return row!;
}

/**
 * Unknown-address failures older than the window in which they count: they would be forgotten
 * at the next attempt anyway (for the daily purge).
 */
export async function purgeUnknownLoginFailures(db: Db, { now }: { now: string }) {
  const f = unknownLoginFailures;
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from ${f}
        where ${f.lastFailedLoginAt} <= ${now}::timestamptz - ${LOGIN_THROTTLE.FAILURES_FORGOTTEN_AFTER}::interval
        returning 1)
      select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}

/** Gives back an attempt claimed by claimLoginAttempt that was never tried (hasher busy). */
export async function releaseLoginAttempt(
  db: Db,
  target: { id: string } | { addressHash: string },
) {
  if ("id" in target) {
    await db.execute(
      sql`update ${users} set ${col(users.failedLoginCount)} = ${users.failedLoginCount} - 1
          where ${users.id} = ${target.id} and ${users.failedLoginCount} > 0`,
    );
    return;
  }
  const f = unknownLoginFailures;
  await db.execute(
    sql`update ${f} set ${col(f.failedLoginCount)} = ${f.failedLoginCount} - 1
        where ${f.addressHash} = ${target.addressHash} and ${f.failedLoginCount} > 0`,
  );
}

/** Replaces a password hash only if it is still `oldHash` (compare-and-set). */
export async function replacePasswordHash(
  db: Db,
  { id, oldHash, newHash }: { id: string; oldHash: string; newHash: string },
) {
  await db.execute(
    sql`update ${users} set ${col(users.passwordHash)} = ${newHash}
        where ${users.id} = ${id} and ${users.passwordHash} = ${oldHash}`,
  );
}

/** How many recent password-login addresses an account remembers. */
const KNOWN_ADDRESSES = 5;

/**
 * CTE `u` of a login: the active user `id` gets last_login_at and its failed-login count reset;
 * with `addressKey` (a password login) that address goes first among its known ones.
 */
export function loggedInUserCte(p: { id: string; now: string; addressKey: string | null }): SQL {
  const at = sql`${p.now}::timestamptz`;
  const addresses =
    p.addressKey === null
      ? sql`${users.loginAddresses}`
      : sql`(array[${p.addressKey}]::text[] || array_remove(${users.loginAddresses}, ${p.addressKey}))[1:${sql.raw(String(KNOWN_ADDRESSES))}]`;
  return signedInUser.as(sql`
      update ${users} set ${col(users.lastLoginAt)} = ${at}, ${col(users.failedLoginCount)} = 0,
        ${col(users.lastFailedLoginAt)} = null, ${col(users.loginAddresses)} = ${addresses}
      where ${users.id} = ${p.id} and ${users.status} = 'active'
      returning *, ${orgPlanColumns(sql`${users.id}`)}`);
}

/**
 * CTE `guest` of a login that carries a guest token: the active guest `guestId` is disabled
 * (which ends its sessions, migration 0013), only when the login's CTE `u` found the account.
 */
export function disabledGuestCte(p: { guestId: string; now: string }): SQL {
  const g = alias(users, "g");
  return disabledGuest.as(sql`
      update ${users} ${g} set ${col(g.status)} = 'disabled', ${col(g.updatedAt)} = ${p.now}::timestamptz
      where ${g.id} = ${p.guestId}::uuid and ${g.isGuest} and ${g.status} = 'active'
        and ${signedInUser.exists}
      returning ${g.id}`);
}

/**
 * CTE `u` of a guest login: a new guest user. Its personal organisation is the
 * users_personal_org trigger's (migration 0024), on the free plan.
 */
export function guestUserCte(p: { id: string; referralCode: string; now: string }): SQL {
  return signedInUser.as(sql`
      insert into ${users} (${columnNames([
        users.id,
        users.name,
        users.isGuest,
        users.referralCode,
        users.lastLoginAt,
      ])})
      values (${p.id}, 'Guest', true, ${p.referralCode}, ${p.now}::timestamptz)
      returning *, 'free'::text as plan, null::timestamptz as plan_expires_at,
        null::timestamptz as trial_ends_at`);
}

/**
 * CTEs of a WeChat login: a first login inserts the user and its organisation on the trial
 * (`inserted_user`, `inserted_org`, `ins`), a later one stamps the active user (`existing`);
 * `u` is the one, with its organisation's plan columns.
 */
export function wechatUserCtes(p: {
  id: string;
  openid: string;
  unionid: string | null;
  plan: string;
  referralCode: string;
  now: string;
}): SQL {
  return sql`inserted_user as (
      insert into ${users} (${columnNames([
        users.id,
        users.name,
        users.wechatOpenid,
        users.wechatUnionid,
        users.referralCode,
        users.lastLoginAt,
      ])})
      values (${p.id}, 'WeChat user', ${p.openid}, ${p.unionid},
              ${p.referralCode}, ${p.now}::timestamptz)
      on conflict (${col(users.wechatOpenid)}) do nothing
      returning *),
    ${trialOrgCtes({ name: "inserted_org", users: "inserted_user", plan: p.plan, now: p.now })},
    ${wechatInsertedUser.as(withPlans("inserted_user", "inserted_org"))},
    ${existingUser.as(sql`
      update ${users} set ${col(users.lastLoginAt)} = ${p.now}::timestamptz
      where ${users.wechatOpenid} = ${p.openid} and ${users.status} = 'active'
        and not exists (select 1 from inserted_user)
      returning *, ${orgPlanColumns(sql`${users.id}`)}`)},
    ${signedInUser.as(sql`select * from ${wechatInsertedUser} union all select * from ${existingUser}`)}`;
}

/**
 * CTE `upgraded` of a WeChat login that carries a guest token (ADR 0089): the active guest
 * `guestId` becomes the WeChat account (openid, no longer a guest; its organisation gets the
 * trial: `upgraded_user`, `upgraded_org`) in place, so its id
 * and every row it made stay; only while no account has the openid. Empty otherwise (a parallel
 * login took the guest or the openid first; an openid committed meanwhile is a unique violation
 * on users_wechat_openid_key).
 */
export function wechatUpgradedGuestCte(p: {
  guestId: string;
  openid: string;
  unionid: string | null;
  plan: string;
  now: string;
}): SQL {
  const at = sql`${p.now}::timestamptz`;
  const g = alias(users, "g");
  const w = alias(users, "w");
  return sql`upgraded_user as (
      update ${users} ${g} set ${col(g.wechatOpenid)} = ${p.openid},
        ${col(g.wechatUnionid)} = ${p.unionid}::text,
        ${col(g.name)} = case when ${g.name} is null or ${g.name} = 'Guest' then 'WeChat user'
          else ${g.name} end,
        ${col(g.isGuest)} = false,
        ${col(g.lastLoginAt)} = ${at}, ${col(g.updatedAt)} = ${at}
      where ${g.id} = ${p.guestId}::uuid and ${g.isGuest} and ${g.status} = 'active'
        and not exists (select 1 from ${users} ${w} where ${w.wechatOpenid} = ${p.openid})
      returning *),
    ${upgradedGuestOrgCte({ name: "upgraded_org", users: "upgraded_user", plan: p.plan, now: p.now })},
    ${upgradedGuest.as(withPlans("upgraded_user", "upgraded_org"))}`;
}

/** The account a WeChat openid belongs to: its id and status. */
export async function findWechatUserStatus(db: Db, { openid }: { openid: string }) {
  const [row] = await queryRows<Pick<DbRow<typeof users>, "id" | "status">>(
    db,
    sql`select ${users.id}, ${users.status} from ${users} where ${users.wechatOpenid} = ${openid}`,
  );
  return row;
}

/** The password hash of an active account (undefined: no such active account). */
export async function findActivePasswordHash(db: Db, { id }: { id: string }) {
  const [row] = await queryRows<Pick<DbRow<typeof users>, "password_hash">>(
    db,
    sql`select ${users.passwordHash} from ${users}
        where ${users.id} = ${id} and ${users.status} = 'active'`,
  );
  return row;
}

/** CTE `changed` of a password change: the new hash, returning the user's id. */
export function changedPasswordCte(p: { id: string; passwordHash: string; now: string }): SQL {
  return changedPasswordUser.as(sql`
      update ${users} set ${col(users.passwordHash)} = ${p.passwordHash},
        ${col(users.updatedAt)} = ${p.now}::timestamptz
      where ${users.id} = ${p.id} returning ${users.id}`);
}
