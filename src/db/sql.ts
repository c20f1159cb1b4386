import { type Column, type SQL, sql, type Table } from "drizzle-orm";

/**
 * What raw SQL returns for one column: every driver here is told by Drizzle not to parse
 * timestamps (they arrive as Postgres text), and `bigint` arrives as text whatever its mode.
 */
type RawValue<C extends Column> = C["_"]["columnType"] extends "PgBigInt53" | "PgBigInt64"
  ? string
  : C["_"]["data"] extends Date
    ? string
    : C["_"]["data"];

type Columns<T extends Table> = T["_"]["columns"];

/**
 * A table's row as a raw statement returns it (`select ${customers.email} ...`): keyed by the
 * column's name in the database, typed from the Drizzle schema. Renaming a column in
 * src/db/schema changes this type, so every reader of the old name fails `npm run typecheck`.
 */
export type DbRow<T extends Table> = {
  [K in keyof Columns<T> as Columns<T>[K]["_"]["name"]]:
    | RawValue<Columns<T>[K]>
    | (Columns<T>[K]["_"]["notNull"] extends true ? never : null);
};

/** The database names of a table's columns, for `Pick<DbRow<T>, ...>`. */
export type ColumnName<T extends Table> = keyof DbRow<T>;

/**
 * A column's bare name, for the places SQL refuses a qualified one: an insert's column list,
 * `set x = ...`, `on conflict (x)`. Elsewhere interpolate the column itself (`${customers.email}`
 * renders `"customers"."email"`).
 */
export function col(column: Column): SQL {
  return sql`${sql.identifier(column.name)}`;
}

/** Several columns as a select list (`"customers"."id", "customers"."email"`), keys = names. */
export function columnList(columns: readonly Column[]): SQL {
  return sql.join([...columns], sql`, `);
}

/** Bare column names joined, for an insert's column list. */
export function columnNames(columns: readonly Column[]): SQL {
  return sql.join(
    columns.map((c) => col(c)),
    sql`, `,
  );
}
