import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { type Cte, defineCte } from "../../../db/cte";
import { adminAuditLog, orgMembers, orgs, users } from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";
import { auditCte } from "../../admin/queries/audit";

/**
 * The users rows that account management (src/modules/account: verification, password reset,
 * e-mail change) reads and writes; the e-mail token statements (auth/email-token-queries.ts)
 * embed the CTE fragments.
 */

/**
 * The used link's token, CTE `tok` of modules/auth's statements (auth/queries/email-tokens.ts
 * defines it with this handle; ADR 0096): user_id, and as each statement returns them, email,
 * first_password (a change), first (the address was unverified) and promote (a reset).
 */
export const linkToken = defineCte("tok", [
  "user_id",
  "email",
  "first_password",
  "first",
  "promote",
]);

/** The users row a password reset updated (resetPasswordUserCte). */
export const passwordResetUser = defineCte("changed", [
  "id",
  "referred_by",
  "plan",
  "plan_expires_at",
  "first",
  "promoted",
]);

/** `u`: the alias the fragments' UPDATEs give users. */
const u = alias(users, "u");

/** The plan and its end of the organisation of the users row `u`, as select items. */
const planAndEnd = (() => {
  const m = alias(orgMembers, "vm");
  const o = alias(orgs, "vo");
  const of = (column: SQL) =>
    sql`(select ${column} from ${orgMembers} ${m} join ${orgs} ${o} on ${o.id} = ${m.orgId}
      where ${m.userId} = ${u.id})`;
  return sql`${of(sql`${o.plan}`)} as plan, ${of(sql`${o.planExpiresAt}`)} as plan_expires_at`;
})();

/** The account fields the account flows check. */
export type AccountRow = Pick<
  DbRow<typeof users>,
  "id" | "email" | "email_verified_at" | "password_hash" | "is_guest" | "status" | "wechat_openid"
>;

export async function getAccount(db: Db, { id }: { id: string }) {
  const [row] = await queryRows<AccountRow>(
    db,
    sql`select ${users.id}, ${users.email}, ${users.emailVerifiedAt}, ${users.passwordHash},
          ${users.isGuest}, ${users.status}, ${users.wechatOpenid}
        from ${users} where ${users.id} = ${id}`,
  );
  return row;
}

/** The account that uses an address, if any. */
export async function findUserByEmail(db: Db, { email }: { email: string }) {
  const [row] = await queryRows<Pick<DbRow<typeof users>, "id">>(
    db,
    sql`select ${users.id} from ${users} where ${users.email} = ${email}`,
  );
  return row;
}

/** Row sources (`id`, `email`: where a mailed link goes) for issuing an e-mail token. */
export const mailTargets = {
  /** The active account's own address, while unverified. */
  unverified: (id: string) =>
    sql`select ${users.id}, ${users.email} from ${users}
        where ${users.id} = ${id} and ${users.email} is not null
          and ${users.emailVerifiedAt} is null and ${users.status} = 'active'`,
  /** The active account with this address. */
  active: (email: string) =>
    sql`select ${users.id}, ${users.email} from ${users}
        where ${users.email} = ${email} and ${users.status} = 'active'`,
  /** The account, with a new address it asks to change to. */
  newAddress: (id: string, email: string) =>
    sql`select ${users.id}, ${email}::text as email from ${users} where ${users.id} = ${id}`,
};

/**
 * A verification's UPDATE of the users row as CTE `name`, from CTE `tok` (user_id and, with
 * `newEmail`, email: the changed address, and first_password: the first password's hash of a
 * password-less account, or null, ADR 0089): verified now. Returns id, referred_by, and its
 * organisation's plan and plan_expires_at (the referral reward is growth's CTEs), plus
 * `returning`. It never changes the role: a click on a link proves the mailbox, not who holds
 * the account's password and sessions (ADR 0084); the ADMIN_EMAILS bootstrap rides on a
 * password reset instead (resetPasswordUserCte).
 */
export function verifiedUserCte(p: {
  cte: Cte;
  at: SQL;
  onlyUnverified: boolean;
  newEmail: boolean;
  returning?: SQL;
}): SQL {
  const tok = linkToken;
  return p.cte.as(sql`
      update ${users} ${u} set ${p.newEmail ? sql`${col(u.email)} = ${tok.col("email")}, ${col(u.passwordHash)} = coalesce(${tok.col("first_password")}, ${u.passwordHash}), ` : sql``}${col(u.emailVerifiedAt)} = ${p.at},
        ${col(u.updatedAt)} = ${p.at}
      from ${tok} where ${u.id} = ${tok.col("user_id")}${p.onlyUnverified ? sql` and ${u.emailVerifiedAt} is null` : sql``}
      returning ${u.id}, ${u.referredBy}, ${planAndEnd}${p.returning ?? sql``}`);
}

/**
 * Whether the users row `row` may be made admin by ADMIN_EMAILS now (`listed`: the addresses).
 * Never a WeChat-linked account (ADR 0089 lets one take an address): the reset that claims it
 * ends sessions and replaces the password but leaves the WeChat sign-in, which the mailbox's
 * holder can neither see nor remove, so whoever pointed that account at the listed address
 * would sign in as an admin.
 */
export const claimsListedAddress = (row: string, listed: SQL) =>
  sql`(${sql.raw(row)}.${col(users.role)} = 'user' and not ${sql.raw(row)}.${col(users.isGuest)}
    and ${sql.raw(row)}.${col(users.wechatOpenid)} is null
    and ${sql.raw(row)}.${col(users.email)} in ${listed})`;

/**
 * The first-admin bootstrap's audit row (docs/deploy.md) as CTE `audit`: one per row of CTE
 * `from` (users rows whose password the mailbox holder just set) whose `promoted` flag is set.
 */
export function claimAuditCte(
  from: Cte<string, "promoted">,
  at: SQL,
  requestId: string | undefined,
): SQL {
  return auditCte(
    { id: null, ip: null, requestId: requestId ?? null },
    {
      action: CLAIM_ACTION,
      target: "user",
      rows: sql`(select * from ${from} where ${from.col("promoted")})`,
      kind: "custom",
      before: sql`jsonb_build_object('role', 'user')`,
      after: sql`jsonb_build_object('role', 'admin')`,
      fields: ["role"],
      at,
    },
  );
}

/** The audit action of a bootstrap by password reset (ADR 0084). */
const CLAIM_ACTION = "user.role_claim";
/** The audit action of the old bootstrap by a click on the verification link (ADR 0054). */
const CLICK_BOOTSTRAP_ACTION = "user.role_bootstrap";

/**
 * A password reset's UPDATE of the users row as CTE `changed`, from CTE `tok` (user_id,
 * `first`: the address was unverified, `promote`: see claimsListedAddress). The link reached
 * the mailbox, so the address is verified; the login-failure count and the known login addresses
 * go (a reset is how an owner takes an account back, and an attacker's addresses must not skip
 * the delay); a listed address becomes admin. Returns id, referred_by, plan, plan_expires_at,
 * `first` and `promoted`.
 */
export function resetPasswordUserCte(p: { passwordHash: string; at: SQL }): SQL {
  const tok = linkToken;
  return passwordResetUser.as(sql`
      update ${users} ${u} set ${col(u.passwordHash)} = ${p.passwordHash},
        ${col(u.failedLoginCount)} = 0, ${col(u.lastFailedLoginAt)} = null,
        ${col(u.loginAddresses)} = '{}'::text[],
        ${col(u.emailVerifiedAt)} = coalesce(${u.emailVerifiedAt}, ${p.at}),
        ${col(u.role)} = case when ${tok.col("promote")} then 'admin' else ${u.role} end,
        ${col(u.updatedAt)} = ${p.at}
      from ${tok} where ${u.id} = ${tok.col("user_id")}
      returning ${u.id}, ${u.referredBy}, ${planAndEnd}, ${tok.col("first")},
        ${tok.col("promote")} as promoted`);
}

/**
 * Listed admins matching `condition` (SQL over `users`) go back to `user`, each with its audit
 * row `action` (request id `startup`), in one statement. Returns how many.
 */
async function demoteListedAdmins(db: Db, listed: string[], condition: SQL, action: string) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with demoted as (
        update ${users} set ${col(users.role)} = 'user', ${col(users.updatedAt)} = now()
        where ${users.role} = 'admin'
          and ${users.email} in (select jsonb_array_elements_text(${JSON.stringify(listed)}::jsonb))
          and ${condition}
        returning ${users.id}),
      ${auditCte(
        { id: null, ip: null, requestId: "startup" },
        {
          action,
          target: "user",
          rows: sql`demoted`,
          kind: "custom",
          before: sql`jsonb_build_object('role', 'admin')`,
          after: sql`jsonb_build_object('role', 'user')`,
          fields: ["role"],
        },
      )}
      select count(*)::int as n from demoted`,
  );
  return row?.n ?? 0;
}

/** Accounts made admin by a listed address that was never verified go back to `user`. */
export function demoteUnverifiedAdmins(db: Db, { listed }: { listed: string[] }) {
  return demoteListedAdmins(
    db,
    listed,
    sql`${users.emailVerifiedAt} is null`,
    "user.role_unverified_demote",
  );
}

/**
 * Listed accounts whose admin role came last from the old bootstrap, a click on the
 * verification link (`user.role_bootstrap`), go back to `user` with an audit row (request id
 * `startup`): the click proved the mailbox but not who holds the password, so the account may be
 * an attacker's (ADR 0084). The mailbox holder takes it back, admin again, with a password reset.
 * A later grant (`admin:grant`, an admin's PATCH, a reset's claim) keeps the role. Returns how many.
 */
export function demoteClickBootstrappedAdmins(db: Db, { listed }: { listed: string[] }) {
  const a = adminAuditLog;
  const roleChanges = sql`(${a.action} in (${CLICK_BOOTSTRAP_ACTION}, ${CLAIM_ACTION}, 'user.role_grant')
    or (${a.action} = 'user.update' and ${a.changes} ? 'role'))`;
  return demoteListedAdmins(
    db,
    listed,
    sql`(select ${a.action} from ${a}
         where ${a.targetType} = 'user' and ${a.targetId} = ${users.id}::text and ${roleChanges}
         order by ${a.createdAt} desc, ${a.id} desc limit 1) = ${CLICK_BOOTSTRAP_ACTION}`,
    "user.role_unclaimed_demote",
  );
}
