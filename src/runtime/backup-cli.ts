import { parseConfig } from "../config";
import { backupEmbedded, embeddedCluster, restoreEmbedded } from "./node/backup-embedded";
import { backupPostgres, restorePostgres } from "./node/backup-postgres";

const USAGE =
  "usage: npm run db:backup -- FILE\n       npm run db:restore -- FILE [--force]\n" +
  "(the database from DATABASE_URL, else the embedded one in DATA_DIR; see docs/backup.md)";

/**
 * `npm run db:backup -- FILE` and `npm run db:restore -- FILE [--force]` (ADR 0118): PostgreSQL
 * through pg_dump / pg_restore, the embedded database through PGlite's dump, taken by the
 * running server when there is one.
 */
async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const force = rest.includes("--force");
  const files = rest.filter((arg) => arg !== "--force");
  if ((command !== "backup" && command !== "restore") || files.length !== 1) {
    console.error(USAGE);
    process.exit(2);
  }
  // npm runs scripts from the package root: a relative FILE is the operator's, from INIT_CWD.
  const given = files[0]!;
  const file = given.startsWith("/") ? given : `${process.env.INIT_CWD ?? process.cwd()}/${given}`;
  const config = parseConfig(process.env);

  if (config.DATABASE_URL) {
    if (command === "backup") {
      await backupPostgres(config.DATABASE_URL, file);
      console.log(`backup written to ${file} (pg_dump, custom format)`);
    } else {
      await restorePostgres(config.DATABASE_URL, file);
      console.log(`restored ${file}; the next start applies any newer migrations`);
    }
    return;
  }

  const dataDir = embeddedCluster(config.DATA_DIR);
  if (command === "backup") {
    const { bytes, from } = await backupEmbedded(dataDir, file);
    console.log(`backup written to ${file} (${bytes} bytes, from the ${from})`);
    return;
  }
  const restored = await restoreEmbedded(dataDir, file, force);
  if (restored.movedAside) console.log(`the previous database was moved to ${restored.movedAside}`);
  const behind = restored.migrationsKnown - restored.migrationsInBackup;
  console.log(
    `restored ${file} into ${dataDir} (${restored.migrationsInBackup} migrations applied; ` +
      (behind > 0
        ? `the next start applies the ${behind} newer ones)`
        : behind < 0
          ? `${-behind} more than this version knows: run the version the backup was made with)`
          : "up to date)"),
  );
}

main().catch((error) => {
  // Every failure here is the operator's to read (a lock, a wrong file, pg_dump's own words).
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
