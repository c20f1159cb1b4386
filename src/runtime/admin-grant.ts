import { ConfigError, parseConfig } from "../config";
import { grantAdminRole } from "../modules/admin/queries";
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
    // The audit row (no actor: an operator's command) is written in the same statement.
    const granted = await grantAdminRole(database.db, { email });
    if (!granted) {
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
