import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import {
  creditConsumptions,
  creditPackages,
  orgCredits,
  orgMembers,
  orgs,
  users,
} from "../../../db/schema";
import { type ColumnName, columnList, columnNames, type DbRow } from "../../../db/sql";
import { escapeLike } from "../../../lib/sql-text";
import { type Actor, auditCte } from "../../admin/queries/audit";
import {
  type AuditedUpdate,
  auditedInsert,
  auditedUpdate,
} from "../../admin/queries/audited-write";

/**
 * The organisations' wallets, largest first (ADR 0098), each with its organisation and owner
 * (`user_id`, `email`, `name`: adjusting by that user id adjusts this wallet) and the plan in
 * effect's code as stored; `q` matches the owner's email or name or the organisation's name.
 */
export function listCreditUsersPage(db: Db, params: { q?: string; page: number; size: number }) {
  const c = alias(orgCredits, "c");
  const o = alias(orgs, "o");
  const m = alias(orgMembers, "m");
  const u = alias(users, "u");
  const filters: SQL[] = [sql`true`];
  if (params.q) {
    const pattern = `%${escapeLike(params.q.toLowerCase())}%`;
    filters.push(
      sql`(${u.email} like ${pattern} or lower(${u.name}) like ${pattern} or lower(${o.name}) like ${pattern})`,
    );
  }
  return selectPage<
    Pick<DbRow<typeof orgCredits>, "org_id" | "balance" | "updated_at"> & {
      org_name: string;
      plan: string;
      user_id: string | null;
      email: string | null;
      name: string | null;
    }
  >(db, {
    columns: sql`${c.orgId}, ${o.name} as org_name, ${u.id} as user_id, ${u.email}, ${u.name},
      ${o.plan} as plan, ${c.balance}, ${c.updatedAt}`,
    from: sql`${orgCredits} ${c} join ${orgs} ${o} on ${o.id} = ${c.orgId}
      left join ${orgMembers} ${m} on ${m.orgId} = ${c.orgId} and ${m.role} = 'owner'
      left join ${users} ${u} on ${u.id} = ${m.userId}`,
    where: sql.join(filters, sql` and `),
    order: sql`${c.balance} desc, ${c.orgId}`,
    page: params.page,
    size: params.size,
  });
}

/** Deductions, newest first, by user, operation and status, with the user's email. */
export function listConsumptionsPage(
  db: Db,
  params: { userId?: string; operation?: string; status?: string; page: number; size: number },
) {
  const c = alias(creditConsumptions, "c");
  const u = alias(users, "u");
  const filters: SQL[] = [sql`true`];
  if (params.userId) filters.push(sql`${c.userId} = ${params.userId}`);
  if (params.operation) filters.push(sql`${c.operation} = ${params.operation}`);
  if (params.status) filters.push(sql`${c.status} = ${params.status}`);
  return selectPage<
    Pick<
      DbRow<typeof creditConsumptions>,
      "id" | "org_id" | "user_id" | "operation" | "cost" | "status" | "created_at" | "refunded_at"
    > &
      Pick<DbRow<typeof users>, "email">
  >(db, {
    columns: columnList([
      c.id,
      c.orgId,
      c.userId,
      u.email,
      c.operation,
      c.cost,
      c.status,
      c.createdAt,
      c.refundedAt,
    ]),
    from: sql`${creditConsumptions} ${c} join ${users} ${u} on ${u.id} = ${c.userId}`,
    where: sql.join(filters, sql` and `),
    order: sql`${c.createdAt} desc, ${c.id} desc`,
    page: params.page,
    size: params.size,
  });
}

/* ------------------------------------------------------------------ packages */

const p = creditPackages;
type PackageRow = Pick<
  DbRow<typeof creditPackages>,
  | "id"
  | "name"
  | "credits"
  | "price"
  | "currency"
  | "active"
  | "sort_order"
  | "created_at"
  | "updated_at"
>;
/** Bare names: read from the table or from a CTE over it. */
const PACKAGE_SELECT = columnNames([
  p.id,
  p.name,
  p.credits,
  p.price,
  p.currency,
  p.active,
  p.sortOrder,
  p.createdAt,
  p.updatedAt,
]);

/** The columns an admin may set, by their database names. */
export const PACKAGE_COLUMNS = [
  "name",
  "credits",
  "price",
  "currency",
  "active",
  "sort_order",
] as const satisfies readonly ColumnName<typeof creditPackages>[];
export type PackageValues = Pick<DbRow<typeof creditPackages>, (typeof PACKAGE_COLUMNS)[number]>;

export function listAllPackages(db: Db): Promise<PackageRow[]> {
  return queryRows<PackageRow>(
    db,
    sql`select ${PACKAGE_SELECT} from ${p} order by ${p.sortOrder}, ${p.price}`,
  );
}

/** Active packages on sale, as the public catalogue shows them. */
export function listActivePackages(
  db: Db,
): Promise<Pick<PackageRow, "id" | "name" | "credits" | "price" | "currency">[]> {
  return queryRows(
    db,
    sql`select ${columnList([p.id, p.name, p.credits, p.price, p.currency])} from ${p}
        where ${p.active} order by ${p.sortOrder}, ${p.price}`,
  );
}

/** Creates a package with its audit row, in one statement. */
export async function insertPackage(
  db: Db,
  params: { actor: Actor; values: PackageValues; fields: readonly string[] },
): Promise<PackageRow | undefined> {
  const v = params.values;
  const [row] = await queryRows<PackageRow>(
    db,
    auditedInsert(params.actor, {
      insert: sql`insert into ${p} (${columnNames([p.name, p.credits, p.price, p.currency, p.active, p.sortOrder])})
        values (${v.name}, ${v.credits}, ${v.price}, ${v.currency}, ${v.active}, ${v.sort_order})`,
      select: PACKAGE_SELECT,
      audit: { action: "credit_package.create", target: "credit_package", fields: params.fields },
    }),
  );
  return row;
}

/** Sets `sets` on package `id` with its audit row (`action`), in one statement. */
export async function updatePackageAudited(
  db: Db,
  params: AuditedUpdate,
): Promise<PackageRow | undefined> {
  const [row] = await queryRows<PackageRow>(
    db,
    auditedUpdate(params, {
      table: p,
      target: "credit_package",
      select: PACKAGE_SELECT,
      update: (set, old) => sql`update ${p} set ${set} from ${old.from} where ${old.where}`,
    }),
  );
  return row;
}

/* ------------------------------------------------------------------ adjustments */

type AdjustRow = {
  found: boolean;
  ok: boolean | null;
  balance: number | null;
  ledger_id: string | null;
};

/**
 * An admin's correction with its audit row, in one statement: a positive delta adds a
 * non-expiring lot (credit_grant), a negative one deducts (credit_charge; not ok when not
 * covered, nothing written). `found` is false for an unknown user (nothing written).
 */
export async function adjustBalanceAudited(
  db: Db,
  params: { actor: Actor; userId: string; delta: number; reason: string; now: string },
): Promise<AdjustRow | undefined> {
  const { actor, delta, reason, now } = params;
  const change =
    delta > 0
      ? sql`select g.applied as ok, g.balance, g.ledger_id
          from target cross join lateral credit_grant(target.id, ${delta}, 'admin_adjustment',
            'admin', ${actor.id}, null, ${reason}, ${actor.id}::uuid, ${now}::timestamptz) g`
      : sql`select c.ok, c.balance, c.ledger_id
          from target cross join lateral credit_charge(target.id, ${-delta},
            'admin_adjustment', null, ${reason}, ${actor.id}::uuid, null,
            ${now}::timestamptz) c`;
  const [row] = await queryRows<AdjustRow>(
    db,
    sql`with target as (select ${users.id} from ${users} where ${users.id} = ${params.userId}),
      adjusted as (${change}),
      ${auditCte(actor, {
        action: "credit.adjust",
        target: "user",
        rows: sql`(select ${params.userId}::text as id, balance from adjusted where ok)`,
        kind: "custom",
        before: sql`jsonb_build_object('balance', r.balance - ${delta}::int)`,
        after: sql`jsonb_build_object('balance', r.balance, 'reason', ${reason}::text)`,
        fields: ["balance", "reason"],
      })}
      select exists (select 1 from target) as found, a.ok, a.balance, a.ledger_id
      from (select 1) one left join adjusted a on true`,
  );
  return row;
}
