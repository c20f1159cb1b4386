import { measureStatementCeilings, type StatementCeilings } from "../customers";
import { fmt } from "../format";
import { type ListPlanResult, measureListPlan } from "../list-plan";
import { DURATION_S, RUNS } from "../load";
import { makeTempDir, withClient } from "../resources";
import type { BenchContext } from "../setup";

export type StatementsResult = StatementCeilings & { listPlan: ListPlanResult };

/**
 * The list's statement and /me's read by pgbench alone (what PostgreSQL allows each), then the
 * list statement's plan against an index-only read of its page.
 */
export async function measureStatements(ctx: BenchContext): Promise<StatementsResult> {
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
  const listPlan = await withClient(ctx.db.url, (client) =>
    measureListPlan(client, ctx.seed.userId),
  );
  ctx.log(
    `  list statement ${fmt(listPlan.statement.executionMs, 3)} ms vs index-only read of its page ${fmt(listPlan.indexOnly.executionMs, 3)} ms (${fmt(listPlan.ratio, 2)}x)`,
  );
  return { ...statements, listPlan };
}
