import { fillPlaceholders, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { Db } from "../src/db/client";
import { listCustomers } from "../src/modules/customers/queries";

/**
 * The statement the app sends for a list path, captured from the app's own query builder (a
 * Db whose session records what it is asked to run), so the ceilings, pgbench and EXPLAIN all
 * run exactly what the app runs: a change to the app's SQL moves them too.
 */
export interface ListStatement {
  text: string;
  params: unknown[];
  /** Every parameter index where the caller's user id goes. */
  userParams: number[];
  size: number;
}

const USER_MARKER = "00000000-0000-4000-8000-00000000c0de";

/**
 * The one statement `send` makes the app's query code send, with its values (a prebuilt
 * statement's placeholders filled), from a Db that records it and answers `rows`.
 */
export async function captureStatement(
  send: (db: Db) => Promise<unknown>,
  rows: unknown[] = [],
): Promise<{ sql: string; params: unknown[] }> {
  let captured: { sql: string; params: unknown[] } | undefined;
  const dialect = new PgDialect();
  const db = {
    dialect,
    // queryRows (db.execute) and the named statements (session.prepareQuery) alike.
    execute: async (query: SQL) => {
      captured = dialect.sqlToQuery(query);
      return { rows };
    },
    session: {
      prepareQuery: (built: { sql: string; params: unknown[] }) => ({
        execute: async (values: Record<string, unknown> = {}) => {
          captured = { sql: built.sql, params: fillPlaceholders(built.params, values) };
          return { rows };
        },
      }),
    },
  } as unknown as Db;
  await send(db);
  if (!captured) throw new Error("no statement was captured");
  return captured;
}

export async function captureListStatement(listPath: string): Promise<ListStatement> {
  const url = new URL(listPath, "http://bench");
  const size = Number(url.searchParams.get("size"));
  const captured = await captureStatement((db) =>
    listCustomers(db, {
      userId: USER_MARKER,
      now: new Date().toISOString(),
      status: url.searchParams.get("status") as "negotiating",
      q: url.searchParams.get("q")?.toLowerCase(),
      sort: "-created_at",
      page: 1,
      size,
    }),
  );
  const userParams = captured.params.flatMap((p, i) => (p === USER_MARKER ? [i] : []));
  if (userParams.length === 0) throw new Error("the list statement does not take the user id");
  return { text: captured.sql, params: captured.params, userParams, size };
}

/** The statement's parameters for one user. */
export function listValues(statement: ListStatement, userId: string): unknown[] {
  const values = [...statement.params];
  for (const i of statement.userParams) values[i] = userId;
  return values;
}

/** A value written into SQL text (for pgbench, which takes a script of SQL). */
export const sqlLiteral = (value: unknown): string => {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  return `'${String(value).replaceAll("'", "''")}'`;
};

/** The statement with its values written in (for pgbench, which takes a script of SQL). */
export function listLiteralSql(statement: ListStatement, userId: string): string {
  const values = listValues(statement, userId);
  const text = statement.text.replace(/\$(\d+)/g, (_, n: string) =>
    sqlLiteral(values[Number(n) - 1]),
  );
  return `${text.replace(/\s+/g, " ")};`;
}

// --- EXPLAIN -----------------------------------------------------------------------------------

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Heap Fetches"?: number;
  Plans?: PlanNode[];
}

export interface PlanSummary {
  /** The plan's nodes, depth-first, e.g. "Limit > Index Scan customers_user_created_idx". */
  shape: string;
  indexes: string[];
  sharedHit: number;
  sharedRead: number;
  planningMs: number;
  executionMs: number;
  /** Heap fetches of index-only scans (0 when the visibility map covers the page). */
  heapFetches: number;
}

function describe(node: PlanNode, depth = 0): string[] {
  const name = node["Index Name"]
    ? `${node["Node Type"]} ${node["Index Name"]}`
    : node["Node Type"];
  const rows =
    node["Actual Rows"] !== undefined
      ? ` (${node["Actual Rows"]} rows x ${node["Actual Loops"]})`
      : "";
  return [
    `${"  ".repeat(depth)}${name}${rows}`,
    ...(node.Plans ?? []).flatMap((child) => describe(child, depth + 1)),
  ];
}

function collect(node: PlanNode, into: { indexes: Set<string>; heapFetches: number }) {
  if (node["Index Name"]) into.indexes.add(node["Index Name"]);
  into.heapFetches += node["Heap Fetches"] ?? 0;
  for (const child of node.Plans ?? []) collect(child, into);
}

/** The app's named statements are planned once per connection, then their cached plan is used. */
const EXECUTIONS_BEFORE_CACHED_PLAN = 6;
const PREPARED_NAME = "bench_explained";

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a statement, `runs` times after one warm-up: the last run's
 * plan and buffers (the warm, steady state), the median planning and execution times.
 * `prepared`: as the app runs a named statement, PREPAREd and executed until PostgreSQL has
 * settled on its cached plan (a generic plan, for which a search term's selectivity is unknown,
 * when it costs no more than the custom ones), then EXPLAIN EXECUTE.
 */
export async function explainStatement(
  client: pg.Client,
  text: string,
  values: unknown[],
  runs: number,
  { prepared = false } = {},
): Promise<PlanSummary> {
  const execute = `execute ${PREPARED_NAME}(${values.map(sqlLiteral).join(", ")})`;
  if (!prepared) return explainRuns(client, text, values, runs);
  try {
    await client.query(`prepare ${PREPARED_NAME} as ${text}`);
    for (let i = 0; i < EXECUTIONS_BEFORE_CACHED_PLAN; i++) await client.query(execute);
    return await explainRuns(client, execute, [], runs);
  } finally {
    await client.query(`deallocate ${PREPARED_NAME}`).catch(() => {});
  }
}

async function explainRuns(
  client: pg.Client,
  text: string,
  values: unknown[],
  runs: number,
): Promise<PlanSummary> {
  const explain = async () => {
    const { rows } = await client.query<{ "QUERY PLAN": unknown }>(
      `explain (analyze, buffers, format json) ${text}`,
      values,
    );
    return (
      rows[0]!["QUERY PLAN"] as [
        { Plan: PlanNode; "Planning Time": number; "Execution Time": number },
      ]
    )[0];
  };
  await explain();
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await explain());
  const last = results.at(-1)!;
  const found = { indexes: new Set<string>(), heapFetches: 0 };
  collect(last.Plan, found);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    shape: describe(last.Plan).join("\n"),
    indexes: [...found.indexes],
    sharedHit: last.Plan["Shared Hit Blocks"] ?? 0,
    sharedRead: last.Plan["Shared Read Blocks"] ?? 0,
    planningMs: median(results.map((r) => r["Planning Time"])),
    executionMs: median(results.map((r) => r["Execution Time"])),
    heapFetches: found.heapFetches,
  };
}
