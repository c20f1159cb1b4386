import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

// Driver-error helpers live in lib (src/http reads them too); re-exported for the modules.
export { databaseUnavailable, pgConstraint, pgErrorCode } from "../lib/db-errors";

type Schema = typeof schema;
/** One Drizzle type over every driver (PGlite, node-postgres, Neon). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

type DatabaseKind = "pglite" | "postgres" | "neon";

/** An open database: the Drizzle handle plus what the process needs to manage it. */
export interface Database {
  kind: DatabaseKind;
  db: Db;
  /** Cheapest possible round trip, for /health/ready. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Runs a raw statement and returns its rows; every driver answers with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      arrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
}

/** Statement text -> its name; bounded, since a text with inlined values would never repeat. */
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 500;

/**
 * queryRows as a named (server-side prepared) statement: Postgres parses and plans a text once
 * per connection instead of on every request, which for a list query with filters costs more
 * than running it. The name is given per distinct text (each filter combination is one text),
 * so one name never meets two texts. Only for texts whose values are all parameters.
 */
export async function queryRowsPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const { dialect, session } = db as unknown as DrizzleInternals;
  const built = dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `q${statementNames.size}`;
    statementNames.set(built.sql, name);
  }
  const result = (await session.prepareQuery(built, undefined, name, false).execute()) as {
    rows: T[];
  };
  return result.rows;
}
