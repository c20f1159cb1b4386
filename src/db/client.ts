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
  /** node-postgres: the pool's connections now, for /metrics (runtime/node/metrics.ts). */
  poolStats?: () => { total: number; idle: number; waiting: number };
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
    ): { execute(placeholderValues?: Record<string, unknown>): Promise<unknown> };
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
  const result = (await session
    .prepareQuery(built, undefined, statementName(built.sql), false)
    .execute()) as { rows: T[] };
  return result.rows;
}

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `q${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A statement whose text is built once, its values drizzle placeholders
 * (`sql.placeholder("userId")`) filled on each run: for a statement on a hot path whose shape
 * never changes, where building it from its parts is a sizeable share of the client's work.
 */
export interface PrebuiltStatement {
  query: SQL;
  built?: { sql: string; params: unknown[]; name: string | undefined };
}

export const prebuilt = (query: SQL): PrebuiltStatement => ({ query });

/** Runs a prebuilt statement as a named statement with these values for its placeholders. */
export async function queryPrebuilt<T>(
  db: Db,
  statement: PrebuiltStatement,
  values: Record<string, unknown>,
): Promise<T[]> {
  const { dialect, session } = db as unknown as DrizzleInternals;
  if (!statement.built) {
    const { sql, params } = dialect.sqlToQuery(statement.query);
    statement.built = { sql, params, name: statementName(sql) };
  }
  const { built } = statement;
  const result = (await session
    .prepareQuery(built, undefined, built.name, false)
    .execute(values)) as {
    rows: T[];
  };
  return result.rows;
}

/**
 * Runs `work` in one transaction on every driver (PGlite, node-postgres, Neon's WebSocket
 * pool): it commits when `work` resolves and rolls back when it throws. For writes that must
 * land together but come from more than one module (a billed operation's stored output, its
 * settled charge and its Idempotency-Key's answer: ai/billing.ts). On PGlite, one connection,
 * other statements wait for the commit, so keep `work` to a few statements and no network.
 */
export function withTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db));
}
