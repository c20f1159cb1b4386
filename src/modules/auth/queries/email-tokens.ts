import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { type Cte, defineCte } from "../../../db/cte";
import { type EMAIL_TOKEN_PURPOSES, emailTokens, refreshTokens, users } from "../../../db/schema";
import { col, columnNames, type DbRow } from "../../../db/sql";
import {
  claimAuditCte,
  claimsListedAddress,
  linkToken,
  passwordResetUser,
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

// The CTEs of these statements that other owners' fragments read or define (ADR 0096).
/** The users rows a first verification verified: what growth's referral reward reads. */
const verifiedUsers = defineCte("verified", ["id", "referred_by", "plan", "plan_expires_at"]);
/** The users row an e-mail change updated (first: its address was unverified). */
const changedEmailUser = defineCte("changed", [
  "id",
  "referred_by",
  "plan",
  "plan_expires_at",
  "first",
]);
const endedFamilies = defineCte("ended", ["family_id"]);
const revokedFamilies = defineCte("revoked", ["family_id"]);
const otherLinks = defineCte("others");
const tok = linkToken;

/** The verified rows of an e-mail change or reset: its users row, when `first`. */
const firstVerified = (
  changed: Cte<string, "id" | "referred_by" | "plan" | "plan_expires_at" | "first">,
) =>
  verifiedUsers.as(sql`
    select ${changed.col("id")}, ${changed.col("referred_by")}, ${changed.col("plan")},
      ${changed.col("plan_expires_at")}
    from ${changed} where ${changed.col("first")}`);

interface VerifyParams {
  hash: string;
  now: string;
  /** The caller's own session (sent with the click): the one session the use does not end. */
  keepSessionId: string | null;
  /** growth's referral reward: the CTEs after the verified rows. */
  rewardCtes: (verified: Cte<string, "id" | "referred_by" | "plan" | "plan_expires_at">) => SQL;
}

/**
 * CTE `ended`: every live refresh-token family of the users in CTE `of` but `keep` is revoked
 * (the triggers of migration 0013 record each for the access tokens). Returns family_id.
 */
function endedSessionsCte(of: Cte<string, "id">, at: SQL, keep: string | null): SQL {
  const r = alias(refreshTokens, "r");
  return endedFamilies.as(sql`
      update ${refreshTokens} ${r} set ${col(r.revokedAt)} = ${at} from ${of}
      where ${r.userId} = ${of.col("id")} and ${r.revokedAt} is null
        and ${r.familyId} is distinct from ${keep}::uuid
      returning ${r.familyId}`);
}

/** The ended sessions as the statement's `sessions` column. */
const endedSessions = sql`(select coalesce(array_agg(distinct ${endedFamilies.col("family_id")}), '{}') from ${endedFamilies})`;

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
    sql`with ${tok.as(sql`
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'verify_email' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.email} = ${t.email}
          and ${u.status} = 'active'
        returning ${t.userId}, ${t.email}`)},
      ${verifiedUserCte({ cte: verifiedUsers, at, onlyUnverified: true, newEmail: false })},
      ${endedSessionsCte(verifiedUsers, at, p.keepSessionId)},
      ${p.rewardCtes(verifiedUsers)}
      select ${tok.col("email")}, ${verifiedUsers.exists} as first, ${endedSessions} as sessions
      from ${tok}`,
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
    sql`with ${tok.as(sql`
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'change_email' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.status} = 'active'
          and (${t.passwordHash} is null or ${u.passwordHash} is null)
        returning ${t.userId}, ${t.email}, ${t.passwordHash} as first_password,
          ${u.emailVerifiedAt} is null as first`)},
      ${verifiedUserCte({
        cte: changedEmailUser,
        at,
        onlyUnverified: false,
        newEmail: true,
        returning: sql`, ${tok.col("first")}`,
      })},
      ${firstVerified(changedEmailUser)},
      ${otherLinks.as(sql`
        update ${e} ${t} set ${col(t.expiresAt)} = ${at} from ${tok}
        where ${t.userId} = ${tok.col("user_id")} and ${t.tokenHash} <> ${p.hash} and ${t.usedAt} is null
          and ${t.expiresAt} > ${at}`)},
      ${endedSessionsCte(changedEmailUser, at, p.keepSessionId)},
      ${p.rewardCtes(verifiedUsers)}
      select ${tok.col("email")}, ${tok.col("first")}, ${endedSessions} as sessions
      from ${tok}`,
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
    rewardCtes: VerifyParams["rewardCtes"];
  },
) {
  const at = sql`${p.now}::timestamptz`;
  const r = alias(refreshTokens, "r");
  const [row] = await queryRows<{ sessions: string[] | null; promoted: boolean }>(
    db,
    sql`with ${tok.as(sql`
        update ${e} ${t} set ${col(t.usedAt)} = ${at} from ${users} ${u}
        where ${t.tokenHash} = ${p.hash} and ${t.purpose} = 'reset_password' and ${t.usedAt} is null
          and ${t.expiresAt} > ${at} and ${u.id} = ${t.userId} and ${u.email} = ${t.email}
          and ${u.status} = 'active'
        returning ${t.userId}, ${u.emailVerifiedAt} is null as first,
          ${claimsListedAddress("u", addressSet(p.adminEmails))} as promote`)},
      ${resetPasswordUserCte({ passwordHash: p.passwordHash, at })},
      ${firstVerified(passwordResetUser)},
      ${revokedFamilies.as(sql`
        update ${refreshTokens} ${r} set ${col(r.revokedAt)} = ${at} from ${passwordResetUser}
        where ${r.userId} = ${passwordResetUser.col("id")} and ${r.revokedAt} is null
        returning ${r.familyId}`)},
      -- Every other pending link dies with the old password: a reset is how an owner takes an
      -- account back, and an e-mail change someone else started must not outlive it.
      ${otherLinks.as(sql`
        update ${e} ${t} set ${col(t.expiresAt)} = ${at} from ${tok}
        where ${t.userId} = ${tok.col("user_id")} and ${t.tokenHash} <> ${p.hash} and ${t.usedAt} is null
          and ${t.expiresAt} > ${at}`)},
      ${claimAuditCte(passwordResetUser, at, p.requestId)},
      ${p.rewardCtes(verifiedUsers)}
      select (select array_agg(distinct ${revokedFamilies.col("family_id")}) from ${revokedFamilies}) as sessions,
        ${passwordResetUser.col("promoted")}
      from ${passwordResetUser}`,
  );
  return row;
}
