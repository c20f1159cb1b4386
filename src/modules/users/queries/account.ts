import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { users } from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";
import { auditCte } from "../../admin/queries/audit";

/**
 * The users rows that account management (src/modules/account: verification, password reset,
 * e-mail change) reads and writes; the e-mail token statements (auth/email-token-queries.ts)
 * embed the CTE fragments.
 */

/** `u`: the alias the fragments' UPDATEs give users (growth's referredRewardSet reads it). */
const u = alias(users, "u");

/** The account fields the account flows check. */
export type AccountRow = Pick<
  DbRow<typeof users>,
  "id" | "email" | "email_verified_at" | "password_hash" | "is_guest" | "status"
>;

export async function getAccount(db: Db, { id }: { id: string }) {
  const [row] = await queryRows<AccountRow>(
    db,
    sql`select ${users.id}, ${users.email}, ${users.emailVerifiedAt}, ${users.passwordHash},
          ${users.isGuest}, ${users.status}
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
 * A verification's UPDATE of the users row as CTE `name`, from CTE `tok` (user_id, promote
 * and, with `newEmail`, email: the changed address): verified now, made admin when `promote`,
 * plus `extraSets` (the referral reward's SET items over alias `u`). Returns id, referred_by,
 * plan, plan_expires_at and `promoted`, plus `returning`.
 */
export function verifiedUserCte(p: {
  name: string;
  at: SQL;
  onlyUnverified: boolean;
  newEmail: boolean;
  extraSets: SQL;
  returning?: SQL;
}): SQL {
  return sql`${sql.raw(p.name)} as (
      update ${users} ${u} set ${p.newEmail ? sql`${col(u.email)} = tok.email, ` : sql``}${col(u.emailVerifiedAt)} = ${p.at},
        ${col(u.updatedAt)} = ${p.at},
        ${col(u.role)} = case when tok.promote then 'admin' else ${u.role} end,
        ${p.extraSets}
      from tok where ${u.id} = tok.user_id${p.onlyUnverified ? sql` and ${u.emailVerifiedAt} is null` : sql``}
      returning ${u.id}, ${u.referredBy}, ${u.plan}, ${u.planExpiresAt}, tok.promote as promoted${p.returning ?? sql``})`;
}

/**
 * The first-admin bootstrap's audit row (docs/deploy.md) as CTE `audit`: one per row of CTE
 * `from` (users rows just verified) whose `promoted` flag is set.
 */
export function bootstrapAuditCte(from: string, at: SQL, requestId: string | undefined): SQL {
  return auditCte(
    { id: null, ip: null, requestId: requestId ?? null },
    {
      action: "user.role_bootstrap",
      target: "user",
      rows: sql`(select * from ${sql.raw(from)} where promoted)`,
      kind: "custom",
      before: sql`jsonb_build_object('role', 'user')`,
      after: sql`jsonb_build_object('role', 'admin')`,
      fields: ["role"],
      at,
    },
  );
}

/** A password reset's UPDATE of the users row as CTE `changed`, from CTE `tok` (user_id). */
export function resetPasswordUserCte(p: { passwordHash: string; at: SQL }): SQL {
  return sql`changed as (
      update ${users} ${u} set ${col(u.passwordHash)} = ${p.passwordHash},
        ${col(u.failedLoginCount)} = 0, ${col(u.updatedAt)} = ${p.at}
      from tok where ${u.id} = tok.user_id returning ${u.id})`;
}

/**
 * Accounts made admin by a listed address that was never verified go back to `user`, each with
 * its audit row (request id `startup`), in one statement. Returns how many.
 */
export async function demoteUnverifiedAdmins(db: Db, { listed }: { listed: string[] }) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with demoted as (
        update ${users} set ${col(users.role)} = 'user', ${col(users.updatedAt)} = now()
        where ${users.role} = 'admin' and ${users.emailVerifiedAt} is null
          and ${users.email} in (select jsonb_array_elements_text(${JSON.stringify(listed)}::jsonb))
        returning ${users.id}),
      ${auditCte(
        { id: null, ip: null, requestId: "startup" },
        {
          action: "user.role_unverified_demote",
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
