import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import { orgMembers, orgs, userCredits, users } from "../../../db/schema";
import type { DbRow } from "../../../db/sql";
import { escapeLike } from "../../../lib/sql-text";
import type { AdminUserRow } from "../../users/queries";

/** The organisation an account belongs to and its role there (issue #22). */
type UserOrgColumns = {
  org_id: DbRow<typeof orgMembers>["org_id"] | null;
  org_name: DbRow<typeof orgs>["name"] | null;
  org_role: DbRow<typeof orgMembers>["role"] | null;
};
export type AdminUserOrgRow = AdminUserRow & UserOrgColumns;

const om = alias(orgMembers, "om");
const og = alias(orgs, "og");

/** Select items org_id, org_name, org_role, over the joins of userOrgJoinSql. */
export const userOrgColumnsSql = sql`${om.orgId} as org_id, ${og.name} as org_name, ${om.role} as org_role`;

/** The joins userOrgColumnsSql reads, for the account `userId`. */
export function userOrgJoinSql(userId: SQL | unknown): SQL {
  return sql`left join ${orgMembers} ${om} on ${om.userId} = ${userId}
    left join ${orgs} ${og} on ${og.id} = ${om.orgId}`;
}

const au = alias(users, "u");
// The plan columns belong to the organisation since issue #22 (users/queries orgPlanColumns).
const columns = sql`${au}.*, ${og.plan} as plan, ${og.planExpiresAt} as plan_expires_at,
  ${og.trialEndsAt} as trial_ends_at, ${userCredits.balance} as credits, ${userOrgColumnsSql}`;
const from = sql`${users} ${au} left join ${userCredits} on ${userCredits.userId} = ${au.id}
  ${userOrgJoinSql(au.id)}`;

/**
 * The admin's user list: users newest first, filtered by e-mail or name (`q`), role, status,
 * plan and guest flag, each with their balance and their organisation and role in it.
 */
export function listAdminUsersPage(
  db: Db,
  query: {
    page: number;
    size: number;
    q?: string;
    role?: string;
    status?: string;
    plan?: string;
    isGuest?: boolean;
  },
) {
  const filters: SQL[] = [sql`true`];
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    filters.push(sql`(${au.email} like ${pattern} or lower(${au.name}) like ${pattern})`);
  }
  if (query.role) filters.push(sql`${au.role} = ${query.role}`);
  if (query.status) filters.push(sql`${au.status} = ${query.status}`);
  if (query.plan) filters.push(sql`${og.plan} = ${query.plan}`);
  if (query.isGuest !== undefined) filters.push(sql`${au.isGuest} = ${query.isGuest}`);
  return selectPage<AdminUserOrgRow>(db, {
    columns,
    from,
    where: sql.join(filters, sql` and `),
    order: sql`${au.createdAt} desc, ${au.id} desc`,
    page: query.page,
    size: query.size,
  });
}

/** One user as the admin sees it: every column, the balance, the organisation and role. */
export async function getAdminUser(db: Db, { id }: { id: string }) {
  const [row] = await queryRows<AdminUserOrgRow>(
    db,
    sql`select ${columns} from ${from} where ${au.id} = ${id}`,
  );
  return row;
}
