import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fillPlaceholders } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { Db } from "../src/db/client";
import { chargeOperation } from "../src/modules/credits/queries/balance";
import { pgbench } from "./billing";

/**
 * The charge as PostgreSQL sees it, driven by pgbench's C client instead of Node (issue #13
 * item 2): the statement chargeCredits sends, captured from the app's own query function, run by
 * `pgbench -M prepared` for a random user of the bench's. Beside `pgbench -N` this is what the
 * database allows a charge; the app's charges/s below it is what the Node client costs on the
 * same cores.
 */

const USER_MARKER = "00000000-0000-4000-8000-0000000c4a26";
/** The table pgbench picks a user from (`:n` -> id); created for the run, dropped after. */
const USERS_TABLE = "bench_charge_users";

async function captureChargeSql(operation: string): Promise<{ text: string; params: unknown[] }> {
  let captured: { sql: string; params: unknown[] } | undefined;
  const db = {
    dialect: new PgDialect(),
    session: {
      prepareQuery: (built: { sql: string; params: unknown[] }) => ({
        // A prebuilt statement's params are placeholders, given their values here.
        execute: async (values: Record<string, unknown> = {}) => {
          captured = { sql: built.sql, params: fillPlaceholders(built.params, values) };
          return { rows: [{ cost: 1, ok: true }] };
        },
      }),
    },
  } as unknown as Db;
  await chargeOperation(db, {
    userId: USER_MARKER,
    operation,
    note: null,
    idempotencyKey: null,
    instanceId: "bench-pgbench",
    hold: false,
    now: new Date().toISOString(),
  });
  if (!captured) throw new Error("the charge statement was not captured");
  return { text: captured.sql, params: captured.params };
}

const literal = (value: unknown): string => {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
};

/** The pgbench script: a random user's id looked up by its ordinal, then the app's statement. */
async function chargeScript(operation: string, users: number): Promise<string> {
  const { text, params } = await captureChargeSql(operation);
  const userId = `(select id from ${USERS_TABLE} where n = :n)`;
  const sql = text.replace(/\$(\d+)/g, (_, i: string) => {
    const value = params[Number(i) - 1];
    return value === USER_MARKER ? userId : literal(value);
  });
  if (!sql.includes(userId)) throw new Error("the charge statement does not take the user id");
  return `\\set n random(1, ${users})\n${sql.replace(/\s+/g, " ")};\n`;
}

export interface ChargeStatementRun {
  tps: number;
  transactions: number;
}

/** Writes the script and the user table; returns a runner and a cleanup. */
export async function prepareChargeStatement(
  client: pg.Client,
  options: { url: string; dir: string; operation: string; clients: number; threads: number },
) {
  await client.query(`drop table if exists ${USERS_TABLE}`);
  const { rowCount } = await client.query(
    `create unlogged table ${USERS_TABLE} as
       select (row_number() over (order by id))::int as n, id from users`,
  );
  await client.query(`alter table ${USERS_TABLE} add primary key (n)`);
  const file = join(options.dir, "charge.sql");
  writeFileSync(file, await chargeScript(options.operation, rowCount ?? 0));
  return {
    run: async (seconds: number): Promise<ChargeStatementRun> => {
      const output = await pgbench(
        [
          "-n",
          "-M",
          "prepared",
          "-c",
          String(options.clients),
          "-j",
          String(options.threads),
        ].concat(["-T", String(seconds), "-f", file]),
        options.url,
        (seconds + 30) * 1000,
      );
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
      const done = /number of transactions actually processed: (\d+)/.exec(output);
      if (!tps || !done) throw new Error(`pgbench: no tps in output:\n${output}`);
      return { tps: Number(tps[1]), transactions: Number(done[1]) };
    },
    drop: () => client.query(`drop table if exists ${USERS_TABLE}`),
  };
}
