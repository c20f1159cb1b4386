import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, queryRowsPrepared } from "../../../db/client";
import { type Cte, defineCte } from "../../../db/cte";
import {
  emailTokens,
  refreshTokens,
  sessionRevocations,
  userCredits,
  users,
} from "../../../db/schema";
import { col, columnNames } from "../../../db/sql";
import { agentGuestMove } from "../../agent/queries/guest-merge";
import { aiCallsGuestMove } from "../../ai/queries";
import { assistantGuestMove } from "../../assistant/queries/guest-merge";
import {
  REGISTRATION_CREDITS,
  registrationGrant,
  signupBalance,
  signupCredits,
} from "../../credits/queries/signup-grant";
import { customersGuestMove } from "../../customers/queries/guest-merge";
import { discoveryGuestMove } from "../../discovery/queries/guest-merge";
import { marketingGuestMove } from "../../marketing/queries/guest-merge";
import { notificationsGuestMove } from "../../notifications/queries/guest-merge";
import { productsGuestMove } from "../../products/queries/guest-merge";
import { quotationsGuestMove } from "../../quotations/queries/guest-merge";
import { translationsGuestMove } from "../../translate/queries/guest-merge";
import { usageLogsGuestMove } from "../../usage/queries/guest-merge";
import { sessionLogInsert } from "../../usage/queries/session-log";
import type { UserRow } from "../../users/queries";
import {
  changedPasswordCte,
  changedPasswordUser,
  disabledGuest,
  disabledGuestCte,
  guestUserCte,
  loggedInUserCte,
  orgPlanColumns,
  registeredUser,
  registeredUserCtes,
  signedInUser,
  upgradedGuest,
  wechatInsertedUser,
  wechatUpgradedGuestCte,
  wechatUserCtes,
} from "../../users/queries/sign-in";

/** A refresh token about to be stored: only its hash is. */
export interface RefreshTokenRow {
  hash: string;
  familyId: string;
  expiresAt: string;
}

const rt = refreshTokens;

// The CTEs this module's statements define around the users' and credits' fragments.
const openedSession = defineCte("session");
const signInUsage = defineCte("usage");
const guestSessions = defineCte("guest_sessions");
const revokedSessions = defineCte("revoked");
const endedLinks = defineCte("links");

/**
 * The statements a sign-in adds to its CTE: `session` (a refresh-token row) and `usage` (a
 * usage-log row), for each user of the CTE `source`.
 */
function sessionAndUsage(
  source: Cte<string, "id">,
  refresh: RefreshTokenRow,
  event: string,
  ip: string,
): SQL {
  return sql`${openedSession.as(sql`
      insert into ${rt} (${columnNames([rt.userId, rt.familyId, rt.tokenHash, rt.expiresAt])})
      select ${source.col("id")}, ${refresh.familyId}, ${refresh.hash}, ${refresh.expiresAt}::timestamptz from ${source}`)},
    ${signInUsage.as(sessionLogInsert(source, event, ip))}`;
}

/** The balance joined to a user CTE's rows. */
const balanceJoin = (source: Cte<string, "id">) =>
  sql`left join ${userCredits} on ${userCredits.userId} = ${source.col("id")}`;

/** The ids of a user CTE's rows, as a subquery. */
const idsOf = (source: Cte<string, "id">) => sql`(select ${source.col("id")} from ${source})`;

/**
 * Revokes the live refresh tokens of the users in `userIds` (a subquery), as CTE `cte`
 * returning each token's id and family_id (the session an instance refuses at once).
 */
export function revokeTokensCte(cte: Cte, userIds: SQL, at: SQL, extra: SQL = sql``): SQL {
  return cte.as(sql`
      update ${rt} set ${col(rt.revokedAt)} = ${at}
      where ${rt.userId} in ${userIds} and ${rt.revokedAt} is null${extra}
      returning ${rt.id}, ${rt.familyId}`);
}

/**
 * The registration statement: creates the user on the trial (or turns the caller's guest into
 * the account), grants the registration credits with their ledger row, ends the guest's other
 * sessions, opens the session and writes the usage log: all of it or none.
 */
export async function registerAccount(
  db: Db,
  p: Parameters<typeof registeredUserCtes>[0] & {
    refresh: RefreshTokenRow;
    ip: string;
  },
) {
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<UserRow & { upgraded: boolean }>(
    db,
    sql`with ${registeredUserCtes(p)},
        ${signupBalance(registeredUser, { credits: REGISTRATION_CREDITS, topUp: true, at })},
        ${revokeTokensCte(guestSessions, idsOf(upgradedGuest), at)},
        ${registrationGrant(signupCredits)},
        ${sessionAndUsage(registeredUser, p.refresh, "register", p.ip)}
      select ${registeredUser.all}, ${signupCredits.col("balance")} as credits,
        ${upgradedGuest.exists} as upgraded
      from ${registeredUser}, ${signupCredits}`,
  );
  return row!;
}

/** Every table whose rows a guest creates, moved to the account the guest signs in to. */
function guestRowMoves(guest: Cte<string, "id">, userId: string): SQL {
  const guestIds = idsOf(guest);
  return sql.join(
    [
      customersGuestMove,
      discoveryGuestMove,
      agentGuestMove,
      assistantGuestMove,
      translationsGuestMove,
      marketingGuestMove,
      usageLogsGuestMove,
      aiCallsGuestMove,
      productsGuestMove,
      quotationsGuestMove,
      notificationsGuestMove,
    ].map((move) => move(guestIds, userId)),
    sql`, `,
  );
}

/**
 * Opens a session for an existing active user: token row, usage log, last_login_at and the
 * reset of the failed-login count in one statement. With `guestId`, the same statement moves
 * the guest's rows to this account and disables the guest. Undefined: the user is not active.
 */
export async function openSession(
  db: Db,
  p: {
    userId: string;
    event: string;
    ip: string;
    addressKey: string | null;
    refresh: RefreshTokenRow;
    now: string;
    guestId: string | null;
  },
) {
  const merge =
    p.guestId !== null
      ? sql`, ${disabledGuestCte({ guestId: p.guestId, now: p.now })},
          ${guestRowMoves(disabledGuest, p.userId)}`
      : sql``;
  const [row] = await queryRows<UserRow>(
    db,
    sql`with ${loggedInUserCte({ id: p.userId, now: p.now, addressKey: p.addressKey })},
      ${sessionAndUsage(signedInUser, p.refresh, p.event, p.ip)}${merge}
      select ${signedInUser.all}, ${userCredits.balance} as credits
      from ${signedInUser} ${balanceJoin(signedInUser)}`,
  );
  return row;
}

/** A new guest with an empty balance and its session, in one statement. */
export async function createGuest(
  db: Db,
  p: { id: string; referralCode: string; now: string; refresh: RefreshTokenRow; ip: string },
) {
  const [row] = await queryRows<UserRow>(
    db,
    sql`with ${guestUserCte(p)},
        ${signupBalance(signedInUser, { credits: 0 })},
        ${sessionAndUsage(signedInUser, p.refresh, "guest_login", p.ip)}
        select ${signedInUser.all}, 0 as credits from ${signedInUser}`,
  );
  return row!;
}

/**
 * A WeChat login: a first login registers the user (trial, registration credits and their
 * ledger row), a later one stamps the active user; then the session. Undefined: the account is
 * disabled, or a parallel first login committed after this statement's snapshot.
 */
export async function wechatSignIn(
  db: Db,
  p: Parameters<typeof wechatUserCtes>[0] & { refresh: RefreshTokenRow; ip: string },
) {
  const [row] = await queryRows<UserRow & { created: boolean }>(
    db,
    sql`with ${wechatUserCtes(p)},
        ${signupBalance(wechatInsertedUser, { credits: REGISTRATION_CREDITS })},
        ${registrationGrant(signupCredits)},
        ${sessionAndUsage(signedInUser, p.refresh, "wechat_login", p.ip)}
      select ${signedInUser.all}, ${wechatInsertedUser.exists} as created,
        coalesce((select ${signupCredits.col("balance")} from ${signupCredits}),
                 (select ${userCredits.balance} from ${userCredits}
                  where ${userCredits.userId} = ${signedInUser.col("id")})) as credits
      from ${signedInUser}`,
  );
  return row;
}

/**
 * A WeChat login with the caller's guest token, for an openid no account has (ADR 0089): the
 * guest becomes the WeChat account in place (same id, every row kept), gets the registration
 * credits with their ledger row on top of its balance, its other sessions end, and the new
 * session opens: all of it or none. Undefined: the guest is no longer an active guest, or the
 * openid belongs to an account.
 */
export async function wechatUpgradeGuest(
  db: Db,
  p: Parameters<typeof wechatUpgradedGuestCte>[0] & { refresh: RefreshTokenRow; ip: string },
) {
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<UserRow>(
    db,
    sql`with ${wechatUpgradedGuestCte(p)},
        ${signupBalance(upgradedGuest, { credits: REGISTRATION_CREDITS, topUp: true, at })},
        ${revokeTokensCte(guestSessions, idsOf(upgradedGuest), at)},
        ${registrationGrant(signupCredits)},
        ${sessionAndUsage(upgradedGuest, p.refresh, "wechat_login", p.ip)}
      select ${upgradedGuest.all}, ${signupCredits.col("balance")} as credits
      from ${upgradedGuest}, ${signupCredits}`,
  );
  return row;
}

/**
 * Rotates a refresh token in one statement. A token that was already rotated is a replay: its
 * whole family is revoked. Undefined: expired, revoked, already used, or the user not active.
 */
export async function rotateRefreshToken(
  db: Db,
  p: { hash: string; now: string; fresh: Omit<RefreshTokenRow, "familyId"> },
) {
  const at = sql`${p.now}::timestamptz`;
  const r = alias(refreshTokens, "r");
  const u = alias(users, "u");
  const [row] = await queryRows<UserRow & { session_id: string }>(
    db,
    sql`with old as (
        select ${rt.id}, ${rt.userId}, ${rt.familyId}, ${rt.rotatedAt} from ${rt}
        where ${rt.tokenHash} = ${p.hash}),
      rotated as (
        update ${rt} ${r} set ${col(r.rotatedAt)} = ${at} from old
        where ${r.id} = old.id and ${r.rotatedAt} is null and ${r.revokedAt} is null
          and ${r.expiresAt} > ${at}
        returning ${r.userId}, ${r.familyId}),
      revoked as (
        update ${rt} ${r} set ${col(r.revokedAt)} = ${at} from old
        where old.rotated_at is not null and ${r.familyId} = old.family_id and ${r.revokedAt} is null
        returning ${r.id}),
      fresh as (
        insert into ${rt} (${columnNames([rt.userId, rt.familyId, rt.tokenHash, rt.expiresAt])})
        select rotated.user_id, rotated.family_id, ${p.fresh.hash}, ${p.fresh.expiresAt}::timestamptz
        from rotated join ${users} ${u} on ${u.id} = rotated.user_id and ${u.status} = 'active'
        returning ${col(rt.userId)}, ${col(rt.familyId)})
      select ${u}.*, ${orgPlanColumns(sql`${u.id}`)}, ${userCredits.balance} as credits,
        fresh.family_id as session_id
      from fresh join ${users} ${u} on ${u.id} = fresh.user_id
      left join ${userCredits} on ${userCredits.userId} = ${u.id}`,
  );
  return row;
}

/** Ends a session: revokes its refresh-token family. */
export async function revokeSession(
  db: Db,
  { sessionId, now }: { sessionId: string; now: string },
) {
  await db.execute(
    sql`update ${rt} set ${col(rt.revokedAt)} = ${now}::timestamptz
        where ${rt.familyId} = ${sessionId} and ${rt.revokedAt} is null`,
  );
}

/**
 * A password change in one statement: the new hash, every other session revoked, and pending
 * reset and e-mail change links expired. Returns how many sessions were revoked.
 */
export async function changePassword(
  db: Db,
  p: { userId: string; sessionId: string; passwordHash: string; now: string },
): Promise<number> {
  const at = sql`${p.now}::timestamptz`;
  const e = emailTokens;
  const [result] = await queryRows<{ revoked: number }>(
    db,
    sql`with ${changedPasswordCte({ id: p.userId, passwordHash: p.passwordHash, now: p.now })},
      ${revokeTokensCte(
        revokedSessions,
        idsOf(changedPasswordUser),
        at,
        sql` and ${rt.familyId} <> ${p.sessionId}`,
      )},
      -- Pending reset and e-mail change links die with the old password (an e-mail change
      -- started by someone who knew it must not survive the owner changing it).
      ${endedLinks.as(sql`
        update ${e} set ${col(e.expiresAt)} = ${at}
        where ${e.userId} in ${idsOf(changedPasswordUser)}
          and ${e.purpose} in ('reset_password', 'change_email')
          and ${e.usedAt} is null and ${e.expiresAt} > ${at}`)}
      select count(*)::int as revoked from ${revokedSessions}`,
  );
  return result?.revoked ?? 0;
}

// --- Session revocations (see ./revocations.ts) ---

const sr = sessionRevocations;

/** The database's time and the sessions ended since `since` (less the overlap) or in `ttl`. */
export async function pollRevocations(
  db: Db,
  p: { since: string | null; overlapSeconds: number; ttlSeconds: number },
) {
  const [row] = await queryRowsPrepared<{ db_now: string | Date; ended: string[] | null }>(
    db,
    sql`select now() as db_now,
          (select array_agg(${sr.sessionId}) from ${sr}
           where ${sr.revokedAt} > coalesce(${p.since}::timestamptz
                                         - make_interval(secs => ${p.overlapSeconds}),
                                       now() - make_interval(secs => ${p.ttlSeconds}))) as ended`,
  );
  return row;
}

/** Whether the session has a revocation row (SESSION_CHECK=query: every request). */
export async function isSessionRevoked(db: Db, { sessionId }: { sessionId: string }) {
  const rows = await queryRowsPrepared<{ ended: boolean }>(
    db,
    sql`select true as ended from ${sr} where ${sr.sessionId} = ${sessionId}`,
  );
  return rows.length > 0;
}

/** Deletes revocations older than `olderThanSeconds`; returns how many. */
export async function purgeRevocations(db: Db, { olderThanSeconds }: { olderThanSeconds: number }) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
        delete from ${sr}
        where ${sr.revokedAt} < now() - make_interval(secs => ${olderThanSeconds})
        returning 1)
      select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}
