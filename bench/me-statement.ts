import { fillPlaceholders } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type { Db } from "../src/db/client";
import { findUserWithCredits } from "../src/modules/users/queries";
import { sqlLiteral } from "./list-statement";

/**
 * The app's /me statement (the user, the balance, the organisation with the caller's role, its
 * plan in effect with features and limits), captured from the app's own query function on a
 * Drizzle database whose session records the named statement instead of running it: the /me
 * ceiling and pgbench run exactly what the app runs, and a change to the app's SQL moves them.
 */
export interface MeStatement {
  text: string;
  params: unknown[];
  idParams: number[];
  nowParams: number[];
  /** The result's column names in order, as the app's select names them (its columns are not
   * aliased in the SQL: read the rows as arrays and name them with these). */
  columns: string[];
}

const ID_MARKER = "00000000-0000-4000-8000-0000000000de";
const NOW_MARKER = "2000-01-01T00:00:00.000Z";

export async function captureMeStatement(): Promise<MeStatement> {
  let captured: { sql: string; params: unknown[] } | undefined;
  let columns: string[] = [];
  const db = drizzle.mock();
  const session = (db as unknown as { session: { prepareQuery: unknown } }).session;
  session.prepareQuery = (
    built: { sql: string; params: unknown[] },
    fields: { path: string[] }[] = [],
  ) => {
    columns = fields.map((f) => f.path.join("."));
    const prepared = {
      setToken: () => prepared,
      execute: async (values: Record<string, unknown> = {}) => {
        captured = { sql: built.sql, params: fillPlaceholders(built.params, values) };
        return [];
      },
    };
    return prepared;
  };
  await findUserWithCredits(db as unknown as Db, { id: ID_MARKER, now: NOW_MARKER });
  if (!captured) throw new Error("no /me statement was captured");
  const at = (marker: string) => captured!.params.flatMap((p, i) => (p === marker ? [i] : []));
  const idParams = at(ID_MARKER);
  if (idParams.length === 0) throw new Error("the /me statement does not take the user id");
  return {
    text: captured.sql,
    params: captured.params,
    idParams,
    nowParams: at(NOW_MARKER),
    columns,
  };
}

/** The statement's parameters for one user at one time. */
export function meValues(statement: MeStatement, userId: string, nowIso: string): unknown[] {
  const values = [...statement.params];
  for (const i of statement.idParams) values[i] = userId;
  for (const i of statement.nowParams) values[i] = nowIso;
  return values;
}

/** One row read with rowMode "array", named as the app names it. */
export function meRow(statement: MeStatement, values: unknown[]): Record<string, unknown> {
  return Object.fromEntries(statement.columns.map((name, i) => [name, values[i]]));
}

/** The same statement with its values written in, for pgbench. */
export function meStatementFor(statement: MeStatement, userId: string, nowIso: string): string {
  const values = meValues(statement, userId, nowIso);
  const text = statement.text.replace(/\$(\d+)/g, (_, n: string) =>
    sqlLiteral(values[Number(n) - 1]),
  );
  return `${text.replace(/\s+/g, " ")};`;
}
