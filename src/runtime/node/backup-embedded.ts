import { mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { queryRows } from "../../db/client";
import { inspectBackup, writeFileAtomically } from "./backup-archive";
import { dumpRunning, NoBackupServerError, requestDump } from "./backup-socket";
import { DataDirLockedError, lockDataDir } from "./data-dir-lock";
import { openPgliteDatabase } from "./pglite";
import { MIGRATIONS_FOLDER } from "./project-root";

/** The cluster directory under DATA_DIR, as openConfiguredDatabase (database.ts) opens it. */
export const embeddedCluster = (dataDirSetting: string) => `${dataDirSetting}/pglite`;

export interface BackupResult {
  bytes: number;
  /** Taken from the running server (over its socket) or from the stopped directory. */
  from: "running server" | "stopped database";
}

/**
 * `db:backup` on the embedded database. The lock decides who dumps: free, this process takes it
 * and dumps the directory itself (a server starting meanwhile is refused until it is done);
 * held, the holder is asked over its socket. Either way the file is checked before it is named.
 */
export async function backupEmbedded(dataDir: string, file: string): Promise<BackupResult> {
  if (!(await stat(join(dataDir, "PG_VERSION")).catch(() => null))) {
    throw new Error(`no embedded database in ${dataDir} (check DATA_DIR)`);
  }
  let dump: Uint8Array;
  let from: BackupResult["from"];
  let unlock: () => Promise<void>;
  try {
    unlock = await lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    try {
      dump = await requestDump(dataDir);
    } catch (asked) {
      if (!(asked instanceof NoBackupServerError)) throw asked;
      throw new Error(
        `${error.message}\nThat process does not serve backups (${asked.message}); stop it and run the backup again.`,
      );
    }
    from = "running server";
    inspectBackup(file, dump);
    await writeFileAtomically(file, dump);
    return { bytes: dump.byteLength, from };
  }
  const database = await openPgliteDatabase(dataDir, { unlock });
  try {
    dump = await dumpRunning(database);
    from = "stopped database";
  } finally {
    await database.close();
  }
  inspectBackup(file, dump);
  await writeFileAtomically(file, dump);
  return { bytes: dump.byteLength, from };
}

export interface RestoreResult {
  /** Migrations the backup had applied, and how many this version has. */
  migrationsInBackup: number;
  migrationsKnown: number;
  /** Where the directory that was there went (`--force`), or null. */
  movedAside: string | null;
}

/**
 * `db:restore` on the embedded database: the backup is checked, loaded into a directory beside
 * DATA_DIR's cluster, opened (the migrations table must be there), and only then renamed into
 * place, so a failure at any step leaves the directory as it was. A directory in use is refused
 * (the lock); one that holds a database is refused unless `force`, and then moved aside, never
 * deleted. Migrations are not run here: the next start brings an older backup forward.
 */
export async function restoreEmbedded(
  dataDir: string,
  file: string,
  force: boolean,
): Promise<RestoreResult> {
  const gzipped = await readFile(file);
  inspectBackup(file, gzipped);
  // The lock first: the staging directory and the rename happen with no server on the name.
  // A running server holds it: its message names the process to stop.
  const unlock = await lockDataDir(dataDir);
  try {
    const existing = await readdir(dataDir).catch(() => null);
    if (existing?.length && !force) {
      throw new Error(
        `${dataDir} is not empty: restoring would replace that database. Run again with --force ` +
          "to move it aside (it is kept, renamed) and restore in its place; nothing was changed.",
      );
    }
    await removeStaleStaging(dataDir);
    const staging = `${dataDir}.restore-${process.pid}`;
    let migrationsInBackup: number;
    try {
      const database = await openPgliteDatabase(staging, {
        loadDataDir: new Blob([gzipped]),
        // A name only this process uses, under DATA_DIR's lock held above.
        unlock: async () => {},
      });
      try {
        migrationsInBackup = await appliedMigrations(file, database.db);
      } finally {
        await database.close();
      }
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    let movedAside: string | null = null;
    if (await stat(dataDir).catch(() => null)) {
      if ((await readdir(dataDir)).length) {
        movedAside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
        await rename(dataDir, movedAside);
      } else {
        await rm(dataDir, { recursive: true });
      }
    }
    await mkdir(dirname(dataDir), { recursive: true });
    await rename(staging, dataDir);
    const migrationsKnown = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
    return { migrationsInBackup, migrationsKnown, movedAside };
  } finally {
    await unlock();
  }
}

/** The backup's count of applied migrations; a cluster without the table is not this app's. */
async function appliedMigrations(
  file: string,
  db: Parameters<typeof queryRows>[0],
): Promise<number> {
  try {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    return row?.n ?? 0;
  } catch {
    throw new Error(
      `${file} holds a PostgreSQL cluster without this service's migrations table; nothing was changed.`,
    );
  }
}

/** A restore that died part-way leaves `<cluster>.restore-<pid>`: removed under the lock. */
async function removeStaleStaging(dataDir: string): Promise<void> {
  const prefix = `${basename(dataDir)}.restore-`;
  for (const name of await readdir(dirname(dataDir)).catch(() => [] as string[])) {
    if (name.startsWith(prefix)) await rm(join(dirname(dataDir), name), { recursive: true });
  }
}
