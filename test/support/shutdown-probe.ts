import { sql } from "drizzle-orm";
import { ConfigError, parseConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { DataDirLockedError } from "../../src/runtime/node/data-dir-lock";
import { openConfiguredDatabase } from "../../src/runtime/node/database";

/**
 * `tsx test/support/shutdown-probe.ts`, run (runToExit) on a stopped server's DATA_DIR or its
 * DATABASE_URL: prints, as one JSON line, what a stop left behind for someone else to clean up.
 * Read before any restart, whose recovery would settle it and hide it.
 */
async function main() {
  const database = await openConfiguredDatabase(parseConfig(process.env));
  try {
    const [row] = await queryRows(
      database.db,
      sql`select
        (select count(*)::int from credit_holds) as open_holds,
        (select count(*)::int from idempotency_keys where status = 'in_flight') as keys_in_flight,
        (select count(*)::int from agent_pipelines
          where status = 'running' and lease_until > now()) as runs_still_leased,
        (select count(*)::int from agent_pipelines
          where status = 'running' and lease_until <= now()) as runs_handed_back,
        (select count(*)::int from org_credits c
          where c.balance <> (select coalesce(sum(l.delta), 0) from credit_ledger l
                              where l.org_id = c.org_id)) as wallets_off_ledger,
        (select count(*)::int from credit_ledger where kind = 'refund') as refunds`,
    );
    console.log(JSON.stringify(row));
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError
      ? error.message
      : `shutdown probe failed: ${String(error)}`,
  );
  process.exit(1);
});
