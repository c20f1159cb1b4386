import { ConfigError, parseConfig } from "../config";
import { DataDirLockedError } from "./node/data-dir-lock";
import { openConfiguredDatabase } from "./node/database";

/** `npm run db:migrate`: applies migrations/ to DATABASE_URL (or the embedded database). */
async function main() {
  const config = parseConfig(process.env);
  const database = await openConfiguredDatabase(config);
  await database.close();
  console.log(
    `migrations applied (${config.DATABASE_URL ? "postgres" : `pglite at ${config.DATA_DIR}`})`,
  );
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError
      ? error.message
      : `migration failed: ${String(error)}`,
  );
  process.exit(1);
});
