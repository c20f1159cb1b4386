import { sql } from "drizzle-orm";
import { ConfigError, parseConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { DataDirLockedError } from "../../src/runtime/node/data-dir-lock";
import { openConfiguredDatabase } from "../../src/runtime/node/database";

/**
 * `tsx test/support/agent-stream-fixture.ts USER_ID`, run (runToExit) on a stopped server's
 * DATA_DIR or its DATABASE_URL: records an agent run of USER_ID that another instance is running
 * (a lease of an hour), so its event stream stays open on a server that does not touch it, and
 * prints its id. The user's organisation goes on the business plan (the one with the agent). Opens and closes the database as `npm run admin:grant` does.
 */
async function main() {
  const [userId] = process.argv.slice(2);
  if (!userId) {
    console.error("usage: tsx test/support/agent-stream-fixture.ts USER_ID");
    process.exit(2);
  }
  const database = await openConfiguredDatabase(parseConfig(process.env));
  try {
    // The plan with the agent: a free one has no agent runs (a trigger refuses the row).
    await queryRows(
      database.db,
      sql`update orgs set plan = 'business', plan_expires_at = now() + interval '1 year'
          where id = (select org_id from org_members where user_id = ${userId}::uuid)`,
    );
    const [row] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into agent_pipelines
            (org_id, user_id, status, product, market, max_leads, attempts, lease_until,
             instance_id, started_at)
          select m.org_id, ${userId}::uuid, 'running', 'LED panels', 'Germany', 3, 1,
            now() + interval '1 hour', 'elsewhere', now()
          from org_members m where m.user_id = ${userId}::uuid
          returning id`,
    );
    if (!row) throw new Error(`no organisation for user ${userId}`);
    console.log(row.id);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError
      ? error.message
      : `agent stream fixture failed: ${String(error)} ${String((error as { cause?: unknown }).cause ?? "")}`,
  );
  process.exit(1);
});
