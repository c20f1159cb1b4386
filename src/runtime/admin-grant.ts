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
      sql`update users set role = 'admin', updated_at = now() where email = ${email} returning id`,
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
