import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { type EMAIL_TOKEN_PURPOSES, emailTokens, refreshTokens, users } from "../../../db/schema";
import { col, columnNames, type DbRow } from "../../../db/sql";
import {
  bootstrapAuditCte,
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
  p: { purpose: TokenPurpose; target: SQL; hash: string; now: string; expiresAt: string },
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
        insert into ${e} (${columnNames([e.userId, e.purpose, e.tokenHash, e.email, e.expiresAt, e.createdAt])})
        select id, ${p.purpose}, ${p.hash}, email, ${p.expiresAt}::timestamptz, ${at} from target
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
  adminEmails: readonly string[];
  requestId: string | undefined;
  /** growth's referral reward: SET items over `u`, and the CTEs after the verified rows. */
  rewardSet: SQL;
  rewardCtes: (verifiedCte: string) => SQL;
}

/**
 * Uses a verify_email token (unused, unexpired, for the active account's current address) and
 * verifies the address in one statement, with the first-admin bootstrap and the referral
 * reward. Undefined: the token did nothing.
 */
export async function useVerifyToken(db: Db, p: VerifyParams) {
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<{ email: string; first: boolean; promoted: boolean }>(
    db,
    sql`with tok as (
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'verify_email' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.email} = ${t.email}
          and ${u.status} = 'active'
        returning ${t.userId}, ${t.email},
          (${u.role} = 'user' and ${u.email} in ${addressSet(p.adminEmails)}) as promote),
      ${verifiedUserCte({ name: "verified", at, onlyUnverified: true, newEmail: false, extraSets: p.rewardSet })},
      ${bootstrapAuditCte("verified", at, p.requestId)},
      ${p.rewardCtes("verified")}
      select tok.email, exists (select 1 from verified) as first,
        coalesce((select promoted from verified), false) as promoted
      from tok`,
  );
  return row;
}

/**
 * Uses a change_email token: the new address takes effect, verified; the account's other
 * unused links stop working; with the bootstrap and (first verification) the referral reward.
 * Undefined: the token did nothing. A unique violation on users_email_key: the address is taken.
 */
export async function useEmailChangeToken(db: Db, p: VerifyParams) {
  const at = sql`${p.now}::timestamptz`;
  const [row] = await queryRows<{ email: string; first: boolean; promoted: boolean }>(
    db,
    sql`with tok as (
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'change_email' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.status} = 'active'
        returning ${t.userId}, ${t.email}, ${u.emailVerifiedAt} is null as first,
          (${u.role} = 'user' and ${t.email} in ${addressSet(p.adminEmails)}) as promote),
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
      ${bootstrapAuditCte("changed", at, p.requestId)},
      ${p.rewardCtes("verified")}
      select tok.email, tok.first, coalesce((select promoted from changed), false) as promoted
      from tok`,
  );
  return row;
}

/**
 * Uses a reset token: the password replaced, the login-failure count cleared, every session of
 * the account revoked and its other reset and e-mail change links expired, in one statement.
 * Undefined: the token did nothing; else the revoked session ids.
 */
export async function useResetToken(
  db: Db,
  p: { hash: string; now: string; passwordHash: string },
) {
  const at = sql`${p.now}::timestamptz`;
  const r = alias(refreshTokens, "r");
  const [row] = await queryRows<{ sessions: string[] | null }>(
    db,
    sql`with tok as (
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'reset_password' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.email} = ${t.email}
          and ${u.status} = 'active'
        returning ${t.userId}),
      ${resetPasswordUserCte({ passwordHash: p.passwordHash, at })},
      revoked as (
        update ${refreshTokens} ${r} set ${col(r.revokedAt)} = ${at} from changed
        where ${r.userId} = changed.id and ${r.revokedAt} is null returning ${r.familyId}),
      -- Every other pending link dies with the old password: a reset is how an owner takes an
      -- account back, and an e-mail change someone else started must not outlive it.
      others as (
        update ${e} ${t} set ${col(t.expiresAt)} = ${at} from tok
        where ${t.userId} = tok.user_id and ${t.purpose} in ('reset_password', 'change_email')
          and ${t.tokenHash} <> ${p.hash} and ${t.usedAt} is null and ${t.expiresAt} > ${at})
      select (select array_agg(distinct family_id) from revoked) as sessions from changed`,
  );
  return row;
}
