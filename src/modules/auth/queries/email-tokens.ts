import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { type EMAIL_TOKEN_PURPOSES, emailTokens, refreshTokens, users } from "../../../db/schema";
import { col, columnNames, type DbRow } from "../../../db/sql";
import {
  claimAuditCte,
  claimsListedAddress,
  resetPasswordUserCte,
  verifiedUserCte,
} from "../../users/queries/account";

/** The statements over email_tokens (the mailed links of src/modules/account). */

export type TokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

const e = emailTokens;
const t = alias(emailTokens, "t");
const u = alias(users, "u");

/** `list` (trimmed, lower-cased addresses) as a SQL set. */
const addressSet = (list: readonly string[]) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(list)}::jsonb))`;

/**
 * Issues a token for the account `target` selects (columns `id`, `email`: the address the mail
 * goes to) in one statement that also expires the account's older unused tokens of the same
 * purpose, so only the newest link works. Undefined when `target` selected nobody.
 */
export async function issueEmailToken(
  db: Db,
  p: {
    purpose: TokenPurpose;
    target: SQL;
    hash: string;
    now: string;
    expiresAt: string;
    /** change_email of a password-less account: the first password's hash (ADR 0089). */
    passwordHash?: string | null;
  },
) {
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<Pick<DbRow<typeof emailTokens>, "user_id" | "email">>(
    db,
    sql`with target as (${p.target}),
      superseded as (
        update ${e} ${t} set ${col(t.expiresAt)} = ${at} from target
        where ${t.userId} = target.id and ${t.purpose} = ${p.purpose} and ${t.usedAt} is null
          and ${t.expiresAt} > ${at}),
      issued as (
        insert into ${e} (${columnNames([e.userId, e.purpose, e.tokenHash, e.email, e.passwordHash, e.expiresAt, e.createdAt])})
        select id, ${p.purpose}, ${p.hash}, email, ${p.passwordHash ?? null}::text,
          ${p.expiresAt}::timestamptz, ${at} from target
        returning ${col(e.userId)}, ${col(e.email)})
      select user_id, email from issued`,
  );
  return row;
}

/** Whether a token of one of `purposes` was used or has expired; undefined: unknown. */
export async function tokenState(
  db: Db,
  p: { hash: string; purposes: TokenPurpose[]; now: string },
) {
  const [row] = await queryRows<{ used: boolean; expired: boolean }>(
    db,
    sql`select ${e.usedAt} is not null as used, ${e.expiresAt} <= ${p.now}::timestamptz as expired
        from ${e}
        where ${e.tokenHash} = ${p.hash} and ${e.purpose} in (${sql.join(
          p.purposes.map((purpose) => sql`${purpose}`),
          sql`, `,
        )})`,
  );
  return row;
}

/** The purpose of a token, if it exists. */
export async function tokenPurpose(db: Db, { hash }: { hash: string }) {
  const [row] = await queryRows<Pick<DbRow<typeof emailTokens>, "purpose">>(
    db,
    sql`select ${e.purpose} from ${e} where ${e.tokenHash} = ${hash}`,
  );
  return row;
}

/** Whether a reset token is unused and unexpired (a cheap look before hashing a password). */
export async function resetTokenUsable(db: Db, { hash, now }: { hash: string; now: string }) {
  const [row] = await queryRows<{ ok: boolean }>(
    db,
    sql`select true as ok from ${e}
        where ${e.tokenHash} = ${hash} and ${e.purpose} = 'reset_password' and ${e.usedAt} is null
          and ${e.expiresAt} > ${now}::timestamptz`,
  );
  return row !== undefined;
}

interface VerifyParams {
  hash: string;
  now: string;
  /** The caller's own session (sent with the click): the one session the use does not end. */
  keepSessionId: string | null;
  /** growth's referral reward: SET items over `u`, and the CTEs after the verified rows. */
  rewardSet: SQL;
  rewardCtes: (verifiedCte: string) => SQL;
}

/**
 * CTE `ended`: every live refresh-token family of the users in CTE `of` but `keep` is revoked
 * (the triggers of migration 0013 record each for the access tokens). Returns family_id.
 */
function endedSessionsCte(of: string, at: SQL, keep: string | null): SQL {
  const r = alias(refreshTokens, "r");
  return sql`ended as (
      update ${refreshTokens} ${r} set ${col(r.revokedAt)} = ${at} from ${sql.raw(of)} v
      where ${r.userId} = v.id and ${r.revokedAt} is null
        and ${r.familyId} is distinct from ${keep}::uuid
      returning ${r.familyId})`;
}

/** The ended sessions as the statement's `sessions` column. */
const endedSessions = sql`(select coalesce(array_agg(distinct family_id), '{}') from ended)`;

/**
 * Uses a verify_email token (unused, unexpired, for the active account's current address) and
 * verifies the address in one statement, with the referral reward. A first verification ends
 * every session of the account but `keepSessionId` (ADR 0084: whoever registered may not be who
 * holds the mailbox). Undefined: the token did nothing.
 */
export async function useVerifyToken(db: Db, p: VerifyParams) {
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<{ email: string; first: boolean; sessions: string[] }>(
    db,
    sql`with tok as (
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'verify_email' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.email} = ${t.email}
          and ${u.status} = 'active'
        returning ${t.userId}, ${t.email}),
      ${verifiedUserCte({ name: "verified", at, onlyUnverified: true, newEmail: false, extraSets: p.rewardSet })},
      ${endedSessionsCte("verified", at, p.keepSessionId)},
      ${p.rewardCtes("verified")}
      select tok.email, exists (select 1 from verified) as first, ${endedSessions} as sessions
      from tok`,
  );
  return row;
}

/**
 * Uses a change_email token: the new address takes effect, verified, with the first password
 * the token carries for an account that has none yet (ADR 0089; a token carrying one does
 * nothing once the account has a password); the account's other
 * unused links stop working; every session but `keepSessionId` ends (as a first verification
 * does: the clicker holds the new mailbox, the requester holds the password); with (first
 * verification) the referral reward. Never the admin role, whatever the address (ADR 0084).
 * Undefined: the token did nothing. A unique violation on users_email_key: the address is taken.
 */
export async function useEmailChangeToken(db: Db, p: VerifyParams) {
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<{ email: string; first: boolean; sessions: string[] }>(
    db,
    sql`with tok as (
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'change_email' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.status} = 'active'
          and (${t.passwordHash} is null or ${u.passwordHash} is null)
        returning ${t.userId}, ${t.email}, ${t.passwordHash} as first_password,
          ${u.emailVerifiedAt} is null as first),
      ${verifiedUserCte({
        name: "changed",
        at,
        onlyUnverified: false,
        newEmail: true,
        extraSets: p.rewardSet,
        returning: sql`, tok.first`,
      })},
      verified as (
        select id, referred_by, plan, plan_expires_at from changed where first),
      others as (
        update ${e} ${t} set ${col(t.expiresAt)} = ${at} from tok
        where ${t.userId} = tok.user_id and ${t.tokenHash} <> ${p.hash} and ${t.usedAt} is null
          and ${t.expiresAt} > ${at}),
      ${endedSessionsCte("changed", at, p.keepSessionId)},
      ${p.rewardCtes("verified")}
      select tok.email, tok.first, ${endedSessions} as sessions
      from tok`,
  );
  return row;
}

/**
 * Uses a reset token: the password replaced, the address verified (the link reached it, with
 * the referral reward on a first verification), the login-failure state cleared, every session
 * of the account revoked and its other pending links expired, in one statement. An address in
 * `adminEmails` makes the account admin here, with its audit row: the only way ADMIN_EMAILS
 * grants anything, since only here does the mailbox holder set the password and end everyone
 * else's access at once (ADR 0084). Undefined: the token did nothing.
 */
export async function useResetToken(
  db: Db,
  p: {
    hash: string;
    now: string;
    passwordHash: string;
    adminEmails: readonly string[];
    requestId: string | undefined;
    rewardSet: SQL;
    rewardCtes: (verifiedCte: string) => SQL;
  },
) {
  const at = sql`${p.now}::timestamptz`;
  const r = alias(refreshTokens, "r");
  const [row] = await queryRows<{ sessions: string[] | null; promoted: boolean }>(
    db,
    sql`with tok as (
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'reset_password' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.email} = ${t.email}
          and ${u.status} = 'active'
        returning ${t.userId}, ${u.emailVerifiedAt} is null as first,
          ${claimsListedAddress("u", addressSet(p.adminEmails))} as promote),
      ${resetPasswordUserCte({ passwordHash: p.passwordHash, at, rewardSet: p.rewardSet })},
      verified as (
        select id, referred_by, plan, plan_expires_at from changed where first),
      revoked as (
        update ${refreshTokens} ${r} set ${col(r.revokedAt)} = ${at} from changed
        where ${r.userId} = changed.id and ${r.revokedAt} is null returning ${r.familyId}),
      -- Every other pending link dies with the old password: a reset is how an owner takes an
      -- account back, and an e-mail change someone else started must not outlive it.
      others as (
        update ${e} ${t} set ${col(t.expiresAt)} = ${at} from tok
        where ${t.userId} = tok.user_id and ${t.tokenHash} <> ${p.hash} and ${t.usedAt} is null
          and ${t.expiresAt} > ${at}),
      ${claimAuditCte("changed", at, p.requestId)},
      ${p.rewardCtes("verified")}
      select (select array_agg(distinct family_id) from revoked) as sessions, changed.promoted
      from changed`,
  );
  return row;
}
