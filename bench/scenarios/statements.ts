import { measureStatementCeilings, type StatementCeilings } from "../customers";
import { fmt } from "../format";
import { DURATION_S, RUNS } from "../load";
import { makeTempDir } from "../resources";
import type { BenchContext } from "../setup";

/** The list's statement and /me's read by pgbench alone: what PostgreSQL allows each. */
export async function measureStatements(ctx: BenchContext): Promise<StatementCeilings> {
  const { poolSize } = ctx.settings;
  ctx.log(
    `\nstatement ceilings: pgbench -M prepared -c ${poolSize} -j 2, ${RUNS} x ${DURATION_S} s`,
  );
  const statements = await measureStatementCeilings({
    url: ctx.db.url,
    userId: ctx.seed.userId,
    dir: await makeTempDir("bench-sql-"),
    clients: poolSize,
    threads: 2,
    durationS: DURATION_S,
    runs: RUNS,
  });
  ctx.log(
    `  list statement ${fmt(statements.listTps)} tps, /me read ${fmt(statements.meTps)} tps (${statements.runs.map((r) => `${fmt(r.list)}/${fmt(r.me)}`).join(", ")})`,
  );
  return statements;
}
