import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { chargeOperation } from "../src/modules/credits/queries/balance";
import { type PgbenchRun, pgbenchScript } from "./billing";
import { captureStatement, sqlLiteral } from "./list-statement";

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

/** The pgbench script: a random user's id looked up by its ordinal, then the app's statement. */
async function chargeScript(operation: string, users: number): Promise<string> {
  const { sql: text, params } = await captureStatement(
    (db) =>
      chargeOperation(db, {
        userId: USER_MARKER,
        operation,
        note: null,
        idempotencyKey: null,
        instanceId: "bench-pgbench",
        hold: false,
        now: new Date().toISOString(),
      }),
    [{ cost: 1, ok: true }],
  );
  const userId = `(select id from ${USERS_TABLE} where n = :n)`;
  const sql = text.replace(/\$(\d+)/g, (_, i: string) => {
    const value = params[Number(i) - 1];
    return value === USER_MARKER ? userId : sqlLiteral(value);
  });
  if (!sql.includes(userId)) throw new Error("the charge statement does not take the user id");
  // pgbench reads a command per line: the statement on one, without its `--` comments (which
  // would swallow the rest of the line).
  const oneLine = sql.replace(/--[^\n]*/g, "").replace(/\s+/g, " ");
  return `\\set n random(1, ${users})\n${oneLine};\n`;
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
    run: (seconds: number): Promise<PgbenchRun> =>
      pgbenchScript(options.url, file, { ...options, seconds }),
    drop: () => client.query(`drop table if exists ${USERS_TABLE}`),
  };
}
