import { eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { defineCte } from "../../../db/cte";
import { orgMembers, orgs, userCredits, users } from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";
import { entitlementsJsonSql } from "../../entitlements/service";
import { orgPlanPatchUpdate } from "../../orgs/queries/plan";
import { orgPlanColumns } from "./sign-in";

/** The plan columns moved to the organisation (issue #22), still part of a user row. */
type OrgPlanRow = Pick<DbRow<typeof orgs>, "plan" | "plan_expires_at" | "trial_ends_at">;

type UserColumns =
  | "id"
  | "email"
  | "password_hash"
  | "name"
  | "company"
  | "phone"
  | "country"
  | "language"
  | "role"
  | "status"
  | "is_guest"
  | "wechat_openid"
  | "referral_code"
  | "created_at";

/** Timestamps: text from raw SQL, a Date from the query builder (findUserWithCredits). */
type Timestamps = "plan_expires_at" | "trial_ends_at" | "created_at";
type RawUser = Pick<DbRow<typeof users>, UserColumns> & OrgPlanRow;

/** A users row (raw `u.*` or the builder's), plus the joined credit balance. */
export type UserRow = Omit<RawUser, Timestamps> & {
  [K in Timestamps]: RawUser[K] | Date;
} & {
  credits: DbRow<typeof userCredits>["balance"] | null;
  email_verified_at?: DbRow<typeof users>["email_verified_at"] | Date;
  /** findUserWithCredits only: the plan in effect, its features and limits with usage. */
  entitlements?: unknown;
  /** findUserWithCredits only: the caller's organisation and role there. */
  org?: { id: string; name: string; role: DbRow<typeof orgMembers>["role"] } | string;
};

/** users.* under the snake_case names raw SQL returns, plus the balance. */
const userRowColumns = {
  id: users.id,
  email: users.email,
  password_hash: users.passwordHash,
  name: users.name,
  company: users.company,
  phone: users.phone,
  country: users.country,
  language: users.language,
  role: users.role,
  status: users.status,
  is_guest: users.isGuest,
  wechat_openid: users.wechatOpenid,
  plan: orgs.plan,
  plan_expires_at: orgs.planExpiresAt,
  trial_ends_at: orgs.trialEndsAt,
  referral_code: users.referralCode,
  created_at: users.createdAt,
  credits: userCredits.balance,
  email_verified_at: users.emailVerifiedAt,
};

function prepareFindUser(db: Db) {
  return db
    .select({
      ...userRowColumns,
      entitlements: entitlementsJsonSql(
        { id: orgs.id, plan: orgs.plan, expiresAt: orgs.planExpiresAt },
        sql`${sql.placeholder("now")}::timestamptz`,
      ),
      org: sql<UserRow["org"]>`json_build_object('id', ${orgs.id}, 'name', ${orgs.name},
        'role', ${orgMembers.role})`,
    })
    .from(users)
    .innerJoin(orgMembers, eq(orgMembers.userId, users.id))
    .innerJoin(orgs, eq(orgs.id, orgMembers.orgId))
    .leftJoin(userCredits, eq(userCredits.userId, users.id))
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("find_user_with_credits");
}

// Named statement: Postgres parses and plans the hottest query once per connection.
const preparedFindUser = new WeakMap<Db, ReturnType<typeof prepareFindUser>>();

/**
 * One round trip: the user, their balance, their organisation with their role, and its plan in
 * effect with features and limits (usage counted per organisation).
 */
export async function findUserWithCredits(
  db: Db,
  { id, now }: { id: string; now: string },
): Promise<UserRow | undefined> {
  let statement = preparedFindUser.get(db);
  if (!statement) {
    statement = prepareFindUser(db);
    preparedFindUser.set(db, statement);
  }
  const [row] = await statement.execute({ id, now });
  return row;
}

/** The profile fields PATCH /users/me may set. */
const PROFILE_COLUMNS = {
  name: users.name,
  company: users.company,
  phone: users.phone,
  country: users.country,
  language: users.language,
} as const;

export type ProfilePatch = Partial<Record<keyof typeof PROFILE_COLUMNS, string | null>>;

/** Sets the given profile fields (empty clears) of an active user; the row with its balance. */
export async function updateProfile(
  db: Db,
  { id, patch, now }: { id: string; patch: ProfilePatch; now: Date },
): Promise<UserRow | undefined> {
  const names = Object.keys(PROFILE_COLUMNS) as (keyof typeof PROFILE_COLUMNS)[];
  const sets = names
    .filter((name) => patch[name] !== undefined)
    .map((name) => sql`${col(PROFILE_COLUMNS[name])} = ${patch[name] || null}`);
  const [row] = await queryRows<UserRow>(
    db,
    sql`with u as (
          update ${users} set ${sql.join(sets, sql`, `)}, ${col(users.updatedAt)} = ${now}
          where ${users.id} = ${id} and ${users.status} = 'active' returning *)
        select u.*, ${orgPlanColumns(sql`u.id`)}, ${userCredits.balance} as credits from u
        left join ${userCredits} on ${userCredits.userId} = u.id`,
  );
  return row;
}

/** A users row as the admin sees it: every column (`u.*`) and the balance. */
export type AdminUserRow = UserRow & Pick<DbRow<typeof users>, "last_login_at" | "referred_by">;

const au = alias(users, "u");
const adminUserColumns = sql`${au}.*, ${orgPlanColumns(sql`${au.id}`)}, ${userCredits.balance} as credits`;
const withBalance = sql`left join ${userCredits} on ${userCredits.userId} = ${au.id}`;

/** One user with every column and the balance. */
export async function getUserWithBalance(db: Db, { id }: { id: string }) {
  const [row] = await queryRows<AdminUserRow>(
    db,
    sql`select ${adminUserColumns} from ${users} ${au} ${withBalance} where ${au.id} = ${id}`,
  );
  return row;
}

/** What an admin may change on a user. */
export interface AdminUserPatch {
  role?: string;
  status?: string;
  plan?: string;
  plan_expires_at?: string | null;
}

/** Whether a patch takes its user out of the active admins, if it is one. */
export const takesOutAnAdmin = (patch: AdminUserPatch) =>
  (patch.role !== undefined && patch.role !== "admin") ||
  (patch.status !== undefined && patch.status !== "active");

/**
 * CTE `u` of an audited admin update of user `id`: the patch's fields set (a plan or its end on
 * the user's organisation, patchedOrgPlanCte), returning the updated row (`users.*` and the
 * organisation's plan columns) and the row as it was before (`audit_before`, the same columns).
 *
 * The last active admin is kept: when the patch would take an active admin out (a role other
 * than admin, a status other than active), the statement first locks, in id order, the target
 * and every active admin (CTE `locked`, materialised so each is locked before the update runs),
 * and updates only if another active admin remains. Under READ COMMITTED a lock that waited
 * re-reads the row, so of two admins demoting each other at once the second sees the first
 * already demoted and is refused: never zero admins (ADR 0084). Locking in one order means two
 * such statements never deadlock. Refused, `u` is empty while the user exists.
 */
/** The CTE adminPatchedUserCte defines (modules/admin reads it; ADR 0096): the updated user. */
export const adminPatchedUser = defineCte("u", ["id", "status"]);

export function adminPatchedUserCte(p: { id: string; patch: AdminUserPatch; now: string }): SQL {
  const at = sql`${p.now}::timestamptz`;
  const sets: SQL[] = [sql`${col(users.updatedAt)} = ${at}`];
  if (p.patch.role) sets.push(sql`${col(users.role)} = ${p.patch.role}`);
  if (p.patch.status) sets.push(sql`${col(users.status)} = ${p.patch.status}`);
  const planBefore = (row: string) =>
    sql`(to_jsonb(${sql.raw(row)}) || (select jsonb_build_object('plan', ${orgs.plan},
        'plan_expires_at', ${orgs.planExpiresAt}, 'trial_ends_at', ${orgs.trialEndsAt})
      from ${orgMembers} join ${orgs} on ${orgs.id} = ${orgMembers.orgId}
      where ${orgMembers.userId} = ${sql.raw(row)}.id))`;
  const patched = patchedOrgPlanCte(p.patch, at);
  if (!takesOutAnAdmin(p.patch)) {
    return sql`patched_user as (
      update ${users} set ${sql.join(sets, sql`, `)}
      from (select ${planBefore("o")} as audit_before, o.id as audit_key
            from ${users} o where o.id = ${p.id} for update of o) audit_old
      where ${users.id} = audit_old.audit_key
      returning ${users}.*, audit_old.audit_before),
    ${patched},
    ${adminPatchedUser.as(patchedUserWithPlan)}`;
  }
  const o = alias(users, "o");
  const activeAdmin = (row: string) =>
    sql`(${sql.raw(row)}.${col(users.role)} = 'admin' and ${sql.raw(row)}.${col(users.status)} = 'active')`;
  return sql`locked as materialized (
      select ${planBefore("o")} as audit_before, ${o.id} as audit_key, ${o.role}, ${o.status}
      from ${users} ${o}
      where ${o.id} = ${p.id} or ${activeAdmin("o")}
      order by ${o.id} for update of o),
    patched_user as (
      update ${users} set ${sql.join(sets, sql`, `)}
      from (select audit_before, audit_key, role, status from locked where audit_key = ${p.id}) audit_old
      where ${users.id} = audit_old.audit_key
        and (not ${activeAdmin("audit_old")}
          or (select count(*) from locked l where l.audit_key <> ${p.id} and ${activeAdmin("l")}) > 0)
      returning ${users}.*, audit_old.audit_before),
    ${patched},
    ${adminPatchedUser.as(patchedUserWithPlan)}`;
}

/**
 * CTE `patched_org` of an admin's user patch: a plan or plan end sent is set on the user's
 * organisation (the plan belongs to it since issue #22, so every member gets it), only when
 * CTE `patched_user` updated the user. Returns user_id and the plan columns after the patch.
 */
function patchedOrgPlanCte(patch: AdminUserPatch, at: SQL): SQL {
  if (!patch.plan && patch.plan_expires_at === undefined) {
    return sql`patched_org as (
      select pu.id as user_id, ${orgPlanColumns(sql`pu.id`)} from patched_user pu)`;
  }
  return sql`patched_org as (${orgPlanPatchUpdate({
    from: sql`patched_user pu`,
    userId: sql`pu.id`,
    plan: patch.plan,
    planExpiresAt: patch.plan_expires_at,
    at,
  })})`;
}

/** The patched user with its organisation's plan columns: what the audit row compares. */
const patchedUserWithPlan = sql`select pu.*, po.plan, po.plan_expires_at, po.trial_ends_at
  from patched_user pu join patched_org po on po.user_id = pu.id`;

/**
 * CTE `w` of `npm run admin:grant`: the account with e-mail `email` gets the admin role,
 * returning its id and the role it had (`role_before`, read under lock).
 */
export function adminGrantedUserCte(email: string): SQL {
  const o = alias(users, "o");
  return adminGrantedUser.as(sql`
      update ${users} ${au} set ${col(au.role)} = 'admin', ${col(au.updatedAt)} = now()
      from (select ${o.id}, ${o.role} from ${users} ${o} where ${o.email} = ${email} for update) old
      where ${au.id} = old.id
      returning ${au.id}, old.role as role_before`);
}

/** The CTE adminGrantedUserCte defines (modules/admin reads it; ADR 0096). */
export const adminGrantedUser = defineCte("w", ["id", "role_before"]);
