import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { defineCte } from "../../../db/cte";
import { systemConfig } from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";

/** One system config entry's value and when it changed; undefined when it was never set. */
export async function getConfigEntry(db: Db, { key }: { key: string }) {
  const c = systemConfig;
  const [row] = await queryRows<Pick<DbRow<typeof systemConfig>, "value" | "updated_at">>(
    db,
    sql`select ${c.value}, ${c.updatedAt} from ${c} where ${c.key} = ${key}`,
  );
  return row;
}

/**
 * CTE `w`: an entry stored (inserted or replaced), returning its key and value, for an admin
 * write that embeds it with its audit row. `previousConfigValueSql` reads the value the write
 * replaced (the statement's snapshot).
 */
/** The CTE upsertConfigCte defines: the entry written (key, value; ADR 0096). */
export const upsertedConfig = defineCte("w", ["key", "value"]);

export function upsertConfigCte(input: {
  key: string;
  value: unknown;
  at: string;
  by: string | null;
}): SQL {
  const c = systemConfig;
  return upsertedConfig.as(sql`
    insert into ${c} (${col(c.key)}, ${col(c.value)}, ${col(c.updatedAt)}, ${col(c.updatedBy)})
    values (${input.key}, ${JSON.stringify(input.value)}::jsonb, ${input.at}::timestamptz,
      ${input.by})
    on conflict (${col(c.key)}) do update set ${col(c.value)} = excluded.${col(c.value)},
      ${col(c.updatedAt)} = excluded.${col(c.updatedAt)},
      ${col(c.updatedBy)} = excluded.${col(c.updatedBy)}
    returning ${col(c.key)}, ${col(c.value)}`);
}

/** The entry's value as the statement found it (null when there was none). */
export function previousConfigValueSql(key: string): SQL {
  const c = systemConfig;
  return sql`(select ${c.value} from ${c} where ${c.key} = ${key})`;
}
