// The one rule of who sees which work record in a company workspace (issue #22, docs/teams.md,
// ADR 0097). Every query of a record that belongs to an organisation takes its WHERE condition
// from here, never from a route: a record is visible when it is in the caller's organisation and,
// for a `member`, when the caller holds it (or, for customers, it is in the pool). Managers,
// admins and the owner see every record of their organisation.
//
// The caller's organisation and role are read inside the same statement (two scalar subqueries
// on org_members' primary key, each evaluated once per statement): no extra round trip, and a
// role change or a removal holds from the next statement on, whatever the access token says.
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import { orgMembers } from "./schema/orgs";
import { rendered } from "./sql";

/** A table (or an alias of one) with the organisation and holder columns. */
export interface ScopedTable {
  orgId: AnyPgColumn;
  userId: AnyPgColumn;
}

/**
 * `read`: what the caller may see. `write`: what the caller may change, the same but without
 * the pool (a member claims a pool customer before working on it).
 */
export type ScopeAccess = "read" | "write";

/**
 * The caller's user id: its value, or a placeholder (`sql.placeholder("userId")`) for a
 * statement rendered once and run with the value (src/db/page.ts prebuiltPage, ADR 0104).
 */
export type CallerId = string | Placeholder;

// The membership lookup's names, rendered once: these fragments are in most statements.
const MEMBERS = {
  table: rendered(sql`${orgMembers}`),
  orgId: rendered(sql`${orgMembers.orgId}`),
  role: rendered(sql`${orgMembers.role}`),
  userId: rendered(sql`${orgMembers.userId}`),
};

/** The caller's organisation id, as a scalar subquery (null when the account has none). */
export function callerOrgSql(userId: CallerId): SQL {
  return sql`(select ${MEMBERS.orgId} from ${MEMBERS.table} where ${MEMBERS.userId} = ${userId}::uuid)`;
}

/** The caller's role in their organisation, as a scalar subquery. */
export function callerRoleSql(userId: CallerId): SQL {
  return sql`(select ${MEMBERS.role} from ${MEMBERS.table} where ${MEMBERS.userId} = ${userId}::uuid)`;
}

/** True when the caller sees every record of their organisation (manager, admin, owner). */
export function callerSeesAllSql(userId: CallerId): SQL {
  return sql`coalesce(${callerRoleSql(userId)} <> 'member', false)`;
}

/** Records of the caller's organisation, whoever holds them (the product catalogue). */
export function inCallerOrg(table: { orgId: AnyPgColumn }, userId: CallerId): SQL {
  return sql`${table.orgId} = ${callerOrgSql(userId)}`;
}

/**
 * The records of `table` the caller may see (`read`) or change (`write`). `pool: true` for
 * tables whose unheld rows (user_id null) are the organisation's shared pool (customers);
 * `alsoVisible` widens what a member sees (a quotation of a customer they hold).
 */
export function visibleTo(
  table: ScopedTable,
  userId: CallerId,
  options: { access?: ScopeAccess; pool?: boolean; alsoVisible?: SQL } = {},
): SQL {
  const access = options.access ?? "read";
  const held: SQL[] = [sql`${table.userId} = ${userId}::uuid`];
  if (options.pool && access === "read") held.push(sql`${table.userId} is null`);
  if (options.alsoVisible) held.push(options.alsoVisible);
  held.push(callerSeesAllSql(userId));
  return sql`(${inCallerOrg(table, userId)} and (${sql.join(held, sql` or `)}))`;
}

/**
 * Whether the caller may look at another member's figures (usage, credit history filtered by
 * `user_id`), as a scalar subquery: 'ok' for themself or, for manager+, a member of their
 * organisation; 'forbidden' for a member asking about someone else of their organisation;
 * 'not_found' for an account outside it (no organisation's membership is revealed).
 */
export function memberFiguresAccessSql(callerId: string, targetUserId: string): SQL {
  const c = alias(orgMembers, "figures_caller");
  const t = alias(orgMembers, "figures_target");
  return sql`(select case
      when ${t.orgId} is distinct from ${c.orgId} then 'not_found'
      when ${c.userId} <> ${t.userId} and ${c.role} = 'member' then 'forbidden'
      else 'ok' end
    from ${orgMembers} ${c} left join ${orgMembers} ${t} on ${t.userId} = ${targetUserId}::uuid
    where ${c.userId} = ${callerId}::uuid)`;
}
