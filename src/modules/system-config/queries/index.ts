import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { systemConfig } from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";
import { type Actor, auditCte } from "../../admin/queries/audit";
import { DEFAULT_SYSTEM_CONFIG } from "../defaults";

const c = systemConfig;

/** An entry as the admin API shows it. */
type ConfigRow = Pick<DbRow<typeof systemConfig>, "key" | "value" | "updated_at">;

/** Every stored entry, by key. */
export function listConfig(db: Db): Promise<ConfigRow[]> {
  return queryRows<ConfigRow>(
    db,
    sql`select ${c.key}, ${c.value}, ${c.updatedAt} from ${c} order by ${c.key}`,
  );
}

/** One stored entry; undefined when it was never stored. */
export async function getConfig(db: Db, { key }: { key: string }) {
  const [row] = await queryRows<ConfigRow>(
    db,
    sql`select ${c.key}, ${c.value}, ${c.updatedAt} from ${c} where ${c.key} = ${key}`,
  );
  return row;
}

/**
 * Stores an entry (inserted or replaced) by an admin, with its audit row (the value before, as
 * the statement's snapshot has it, and after) in the same statement.
 */
export async function putConfig(
  db: Db,
  { actor, key, value }: { actor: Actor; key: string; value: unknown },
) {
  const [row] = await queryRows<ConfigRow>(
    db,
    sql`with w as (
        insert into ${c} (${col(c.key)}, ${col(c.value)}, ${col(c.updatedAt)}, ${col(c.updatedBy)})
        values (${key}, ${JSON.stringify(value)}::jsonb, now(), ${actor.id})
        on conflict (${col(c.key)}) do update set ${col(c.value)} = excluded.value,
          ${col(c.updatedAt)} = excluded.updated_at, ${col(c.updatedBy)} = excluded.updated_by
        returning ${col(c.key)}, ${col(c.value)}, ${col(c.updatedAt)}),
      ${auditCte(actor, {
        action: "system_config.update",
        target: "system_config",
        // The statement's snapshot: the value this write replaced.
        rows: sql`(select w.key as id, w.value,
          (select ${c.value} from ${c} where ${c.key} = ${key}) as previous from w)`,
        kind: "custom",
        before: sql`jsonb_build_object('value', r.previous)`,
        after: sql`jsonb_build_object('value', r.value)`,
        fields: ["value"],
      })}
      select key, value, updated_at from w`,
  );
  return row!;
}

/** The default entries that are missing (never a value an admin changed), after migrations. */
export async function seedConfigDefaults(db: Db): Promise<void> {
  await db
    .insert(systemConfig)
    .values(Object.entries(DEFAULT_SYSTEM_CONFIG).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing({ target: systemConfig.key });
}
