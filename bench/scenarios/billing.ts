import {
  BILLING_POOL_SIZE,
  BILLING_WORKERS,
  type BillingResult,
  measureBilling,
  PGBENCH_CLIENTS,
  PGBENCH_SCALE,
  PGBENCH_THREADS,
} from "../billing";
import { makeTempDir, state, withAdmin } from "../resources";
import type { BenchContext } from "../setup";

/** chargeCredits in a child process against pgbench -N on its own database (bench/billing.ts). */
export async function measureBillingScenario(ctx: BenchContext): Promise<BillingResult> {
  const pgbenchDbName = `${ctx.db.name}_pgbench`;
  const pgbenchUrl = new URL(ctx.db.adminUrl);
  pgbenchUrl.pathname = `/${pgbenchDbName}`;
  ctx.log(
    `\nbilling: chargeCredits in a child process, ${BILLING_WORKERS} workers, pool ${BILLING_POOL_SIZE}; ceiling pgbench -N -c ${PGBENCH_CLIENTS} -j ${PGBENCH_THREADS}, scale ${PGBENCH_SCALE}`,
  );
  const billing = await measureBilling({
    benchDbUrl: ctx.db.url,
    pgbenchDbUrl: pgbenchUrl.toString(),
    createPgbenchDb: async () => {
      state.pgbenchDbName = pgbenchDbName;
      await withAdmin(async (c) => {
        await c.query(`drop database if exists "${pgbenchDbName}" with (force)`);
        await c.query(`create database "${pgbenchDbName}"`);
      });
    },
    dropPgbenchDb: async () => {
      await withAdmin((c) => c.query(`drop database if exists "${pgbenchDbName}" with (force)`));
      state.pgbenchDbName = undefined;
    },
    env: { ...ctx.baseEnv, LOG_LEVEL: "silent" },
    dir: await makeTempDir("bench-charge-"),
    log: ctx.log,
  });
  ctx.log(
    `billing check: ${billing.check.ok ? "OK" : "MISMATCH"} (${billing.check.balanceMatches}/${billing.check.users} balances = sum(ledger.delta))`,
  );
  return billing;
}
