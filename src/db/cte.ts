import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * A CTE that one owner's fragment defines and another owner's statement reads (ADR 0096): its
 * name and the columns readers may name, as one typed value instead of a name repeated in
 * strings. The fragment defines it with `cte.as(body)`; readers write `${cte}` (the name, as in
 * `from ${cte}`), `cte.col("balance")` and `cte.all` (`name.*`). Renaming the handle, or a column
 * a reader names that the handle no longer declares, fails the type check; renaming the CTE
 * itself is one edit. A reader that asks for a CTE with some columns takes `Cte<string, "id">`:
 * a handle declaring more columns fits (`col` is a function property, so it is contravariant).
 */
export interface Cte<Name extends string = string, Cols extends string = never> extends SQLWrapper {
  readonly name: Name;
  /** `name.column`, for a column the CTE declares. */
  readonly col: (column: Cols) => SQL;
  /** `name.*` */
  readonly all: SQL;
  /** `name as (body)`: the definition, in a `with` list. */
  readonly as: (body: SQL) => SQL;
  /** `exists (select 1 from name)`: whether the CTE has a row. */
  readonly exists: SQL;
}

export function defineCte<const Name extends string, const Cols extends string = never>(
  name: Name,
  columns: readonly Cols[] = [],
): Cte<Name, Cols> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a CTE name: ${name}`);
  const id = sql.identifier(name);
  const declared = new Set<string>(columns);
  return {
    name,
    col: (column) => {
      // A column outside the declaration gets past the type only through a cast.
      if (!declared.has(column)) throw new Error(`CTE ${name} declares no column ${column}`);
      return sql`${id}.${sql.identifier(column)}`;
    },
    all: sql`${id}.*`,
    as: (body) => sql`${id} as (${body})`,
    exists: sql`exists (select 1 from ${id})`,
    getSQL: () => sql`${id}`,
    // A name, not a subquery: drizzle would wrap any other SQLWrapper in parentheses.
    shouldOmitSQLParens: () => true,
  };
}
