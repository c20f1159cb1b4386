import { type Column, type SQL, sql, type Table } from "drizzle-orm";
import { col } from "../../../db/sql";
import { type Actor, type AuditedWrite, auditCte, lockBefore } from "./audit";

/**
 * One statement: the owner's `insert` of one row (its `insert into ... values ...`, written by
 * the table's owner) with its audit row (docs/adr/0056), answering `select` over the written row
 * (`w`).
 */
export function auditedInsert(
  actor: Actor,
  write: { insert: SQL; select: SQL; audit: Pick<AuditedWrite, "action" | "target" | "fields"> },
): SQL {
  return sql`with w as (${write.insert} returning *),
    ${auditCte(actor, { ...write.audit, rows: sql`w`, kind: "create" })}
    select ${write.select} from w`;
}

/** An audited update as its owner's service asks for it (see auditedUpdate). */
export interface AuditedUpdate {
  actor: Actor;
  id: string;
  /** `column = value` for each field set; `updated_at` is added. */
  sets: SQL[];
  now: string;
  /** `<resource>.<verb>` of the audit row. */
  action: string;
  fields: readonly string[];
}

/**
 * One statement: the owner's update of row `id` (`update`, given the set list with
 * `updated_at = now` added and the lockBefore of the row, writes `update <table> set ... from
 * ... where ...`) with its audit row (`target` its kind), answering `select` over the written
 * row (`w`).
 */
export function auditedUpdate(
  update: AuditedUpdate,
  owner: {
    table: Table & { updatedAt: Column };
    target: string;
    select: SQL;
    update: (set: SQL, old: ReturnType<typeof lockBefore>) => SQL;
  },
): SQL {
  const { table } = owner;
  const sets = [...update.sets, sql`${col(table.updatedAt)} = ${update.now}::timestamptz`];
  const statement = owner.update(sql.join(sets, sql`, `), lockBefore(table, update.id));
  const audit = { action: update.action, target: owner.target, fields: update.fields };
  return sql`with w as (${statement} returning *),
    ${auditCte(update.actor, { ...audit, rows: sql`w`, kind: "update" })}
    select ${owner.select} from w`;
}
