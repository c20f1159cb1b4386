import { getTableName, is, type SQL, sql, Table } from "drizzle-orm";
import type { Cte } from "../../../db/cte";
import { adminAuditLog } from "../../../db/schema";
import { col } from "../../../db/sql";

/** Who made an admin write, for its audit row. */
export interface Actor {
  /** Null for an operator's command-line change (`npm run admin:grant`). */
  id: string | null;
  ip: string | null;
  /** Our own id of the request (the response's X-Request-Id); `cli` / `startup` off-request. */
  requestId: string | null;
  /** The caller's X-Request-Id when it sent a well-formed one: stored beside ours, never as it. */
  clientRequestId?: string | null | undefined;
}

/** How an audit row shows a write-only secret: whether one is stored, never its value. */
export type SecretState = "set" | "unset" | "replaced";

export interface AuditedWrite {
  /** `<resource>.<verb>`, e.g. `credit_plan.update`. */
  action: string;
  /** The kind of resource written, e.g. `credit_plan`; `target_type` of the row. */
  target: string;
  /** The written rows, one audit row each: a CTE of the same statement (read as `r`). */
  rows: SQL | Cte;
  /**
   * Which sides `r` carries: a created row (`returning *`), an updated one (`returning t.*,
   * audit_old.audit_before` over `lockBefore`) or a deleted one (`returning *`). `custom`
   * takes `before` and `after` as given.
   */
  kind: "create" | "update" | "delete" | "custom";
  /** The fields the request set; the row keeps those whose value changed, before and after. */
  fields: readonly string[];
  /** Each side as jsonb over `r` (for `custom`; the kind gives the defaults). */
  before?: SQL;
  after?: SQL;
  /** The target's id over `r`; `r.id` by default. */
  targetId?: SQL;
  /**
   * Write-only fields, e.g. `{api_key: {column: "api_key_ciphertext", after: "replaced"}}`: each
   * side is "set" or "unset" from the stored column (or `after` as the write states it), never
   * the value or its ciphertext.
   */
  secrets?: Record<string, { column: string; after?: SecretState }>;
  /** The row's created_at (the request's clock); the database's now() by default. */
  at?: SQL;
}

const NO_ROW = sql`null::jsonb`;
const SIDES: Record<AuditedWrite["kind"], { before: SQL; after: SQL }> = {
  create: { before: NO_ROW, after: sql`to_jsonb(r)` },
  update: { before: sql`r.audit_before`, after: sql`to_jsonb(r)` },
  delete: { before: sql`to_jsonb(r)`, after: NO_ROW },
  custom: { before: NO_ROW, after: NO_ROW },
};

const secretState = (side: SQL, column: string) =>
  sql`case when ${side} is null then 'null'::jsonb
    when ${side} ->> ${column} is null then '"unset"'::jsonb else '"set"'::jsonb end`;

/** One side's value of field `k.name`, secrets shown as their state. */
function sideValue(side: SQL, write: AuditedWrite, which: "before" | "after"): SQL {
  const plain = sql`coalesce(${side} -> k.name, 'null'::jsonb)`;
  const secrets = Object.entries(write.secrets ?? {});
  if (secrets.length === 0) return plain;
  const cases = secrets.map(([field, { column, after }]) => {
    const stated = which === "after" && after !== undefined;
    return sql`when ${field} then ${stated ? sql`to_jsonb(${after}::text)` : secretState(side, column)}`;
  });
  return sql`case k.name ${sql.join(cases, sql` `)} else ${plain} end`;
}

/**
 * The audit row of an admin write, as a CTE `audit` of the write's own statement, so a change
 * is never without its row or a row without its change (docs/adr/0056). Embed it in the
 * write's `with`: ``sql`with w as (update ... returning ...), ${auditCte(actor, {...})} select ...` ``.
 * `changes` is `{field: {before, after}}` for the request's fields whose value the write changed.
 */
export function auditCte(actor: Actor, write: AuditedWrite): SQL {
  const defaults = SIDES[write.kind];
  const before = write.before ?? defaults.before;
  const after = write.after ?? defaults.after;
  const changes = sql`(
    select coalesce(jsonb_object_agg(f.name, jsonb_build_object('before', f.b, 'after', f.a)),
      '{}'::jsonb)
    from (select k.name, ${sideValue(before, write, "before")} as b,
            ${sideValue(after, write, "after")} as a
          from jsonb_array_elements_text(${JSON.stringify(write.fields)}::jsonb) as k(name)) f
    where f.b is distinct from f.a)`;
  const a = adminAuditLog;
  const at = write.at ? { column: sql`, ${col(a.createdAt)}`, value: sql`, ${write.at}` } : null;
  return sql`audit as (
    insert into ${a} (${col(a.actorId)}, ${col(a.action)}, ${col(a.targetType)},
      ${col(a.targetId)}, ${col(a.changes)}, ${col(a.requestId)}, ${col(a.clientRequestId)}, ${col(a.ip)}${at?.column ?? sql``})
    select ${actor.id}::uuid, ${write.action}, ${write.target},
      (${write.targetId ?? sql`r.id`})::text, ${changes}, ${actor.requestId},
      ${actor.clientRequestId ?? null}, ${actor.ip}${at?.value ?? sql``}
    from ${write.rows} r)`;
}

/**
 * For an UPDATE that is audited: `from` locks the target row and reads it as it is before this
 * update (as jsonb `audit_old.audit_before`), `where` joins it to the row updated. Locking
 * first reads the version the update replaces even when another write committed after this
 * statement's snapshot was taken. `table` is the Drizzle table (or its name); `alias` the name
 * the UPDATE gives it.
 */
export function lockBefore(table: Table | string, id: string, alias?: string) {
  const name = is(table, Table) ? getTableName(table) : table;
  return {
    from: sql`(select to_jsonb(o) as audit_before, o.id as audit_key
      from ${sql.identifier(name)} o where o.id = ${id} for update) audit_old`,
    where: sql`${sql.identifier(alias ?? name)}.id = audit_old.audit_key`,
  };
}
