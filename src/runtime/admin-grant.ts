import { sql } from "drizzle-orm";
import { ConfigError, parseConfig } from "../config";
import { queryRows } from "../db/client";
import { DataDirLockedError } from "./node/data-dir-lock";
import { openConfiguredDatabase } from "./node/database";

/** `npm run admin:grant -- EMAIL`: gives an existing account the admin role. */
async function main() {
  const email = process.argv[2]?.trim().toLowerCase();
  if (!email) {
    console.error("usage: npm run admin:grant -- EMAIL");
    process.exit(2);
  }
  const config = parseConfig(process.env);
  const database = await openConfiguredDatabase(config);
  try {
    const rows = await queryRows<{ id: string }>(
      database.db,
      // The audit row (no actor: an operator's command) is written in the same statement.
      sql`with w as (
          update users u set role = 'admin', updated_at = now()
          from (select id, role from users where email = ${email} for update) old
          where u.id = old.id
          returning u.id, old.role as role_before),
        audit as (
          insert into admin_audit_log (actor_id, action, target_type, target_id, changes,
            request_id)
          select null, 'user.role_grant', 'user', w.id::text,
            case when w.role_before = 'admin' then '{}'::jsonb
              else jsonb_build_object('role',
                jsonb_build_object('before', w.role_before, 'after', 'admin')) end,
            'cli'
          from w)
        select id from w`,
    );
    if (rows.length === 0) {
      console.error(`no account with email ${email}`);
      process.exitCode = 1;
    } else {
      console.log(`${email} is now an admin`);
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError
      ? error.message
      : `admin:grant failed: ${String(error)}`,
  );
  process.exit(1);
});
