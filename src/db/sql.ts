import { type Column, getTableColumns, type SQL, sql, type Table, type View } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/**
 * What raw SQL returns for one column: every driver here is told by Drizzle not to parse
 * timestamps (they arrive as Postgres text), and `bigint` arrives as text whatever its mode.
 */
type RawValue<C extends Column> = C["_"]["columnType"] extends "PgBigInt53" | "PgBigInt64"
  ? string
  : C["_"]["data"] extends Date
    ? string
    : C["_"]["data"];

// A view declared with its columns (`pgView(name, columns).existing()`) reads like a table.
type ColumnsOf<T> = T extends Table
  ? T["_"]["columns"]
  : T extends View
    ? T["_"]["selectedFields"]
    : never;
type Columns<T extends Table | View> = {
  [K in keyof ColumnsOf<T> as ColumnsOf<T>[K] extends Column ? K : never]: Extract<
    ColumnsOf<T>[K],
    Column
  >;
};

/**
 * A table's row as a raw statement returns it (`select ${customers.email} ...`): keyed by the
 * column's name in the database, typed from the Drizzle schema. Renaming a column in
 * src/db/schema changes this type, so every reader of the old name fails `npm run typecheck`.
 */
export type DbRow<T extends Table | View> = {
  [K in keyof Columns<T> as Columns<T>[K]["_"]["name"]]:
    | RawValue<Columns<T>[K]>
    | (Columns<T>[K]["_"]["notNull"] extends true ? never : null);
};

/** The database names of a table's columns, for `Pick<DbRow<T>, ...>`. */
export type ColumnName<T extends Table | View> = keyof DbRow<T>;

/**
 * A column's bare name, for the places SQL refuses a qualified one: an insert's column list,
 * `set x = ...`, `on conflict (x)`. Elsewhere interpolate the column itself (`${customers.email}`
 * renders `"customers"."email"`).
 */
export function col(column: Column): SQL {
  return sql`${sql.identifier(column.name)}`;
}

const dialect = new PgDialect();

/**
 * SQL that names only tables and columns, rendered to its text once: interpolating a Column
 * costs Drizzle ~3 µs per use when the statement is built, which a list of 18 columns on a hot
 * route pays on every request. The text is the same as interpolating the parts each time.
 */
export function rendered(query: SQL): SQL {
  const built = dialect.sqlToQuery(query);
  if (built.params.length > 0) throw new Error("rendered(): the SQL holds parameters");
  return sql.raw(built.sql);
}

/**
 * Every column of a table (or an alias of one) rendered once, by its TypeScript key: for the
 * filters and orderings of a hot statement built on every request. A renamed key still fails
 * the type check.
 */
export function renderedColumns<T extends Table>(
  table: T,
): { [K in keyof T["_"]["columns"]]: SQL } {
  const out: Record<string, SQL> = {};
  for (const key of Object.keys(getTableColumns(table))) {
    out[key] = rendered(sql`${(table as unknown as Record<string, Column>)[key]}`);
  }
  return out as { [K in keyof T["_"]["columns"]]: SQL };
}

/** Several columns as a select list (`"customers"."id", "customers"."email"`), keys = names. */
export function columnList(columns: readonly Column[]): SQL {
  return rendered(sql.join([...columns], sql`, `));
}

/** Bare column names joined, for an insert's column list. */
export function columnNames(columns: readonly Column[]): SQL {
  return sql.join(
    columns.map((c) => col(c)),
    sql`, `,
  );
}

/** A jsonb value as read: parsed by node-postgres and PGlite, text from some drivers. */
export function fromJsonb<T>(value: T | string): T;
export function fromJsonb<T>(value: T | string | null): T | null;
export function fromJsonb<T>(value: T | string | null): T | null {
  if (value === null) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}
