import type { Dirent } from "node:fs";
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Config } from "../../config";
import type { Database, Db } from "../../db/client";
import { migrateDatabase } from "../../db/migrate";
import * as schema from "../../db/schema";
import { demoteUnverifiedListedAdmins } from "../../modules/account/service";
import { seedDefaults } from "../seed-defaults";
import { lockDataDir } from "./data-dir-lock";
import { openPgliteDatabase } from "./pglite";
import { builtPgliteCluster, builtPgliteImage } from "./pglite-image";
import { MIGRATIONS_FOLDER } from "./project-root";

// Tests and scripts open a PGlite through here, as before pglite.ts held it.
export { openPgliteDatabase } from "./pglite";

/**
 * The cluster copied beside `dataDir` and renamed onto it, so a start that dies part-way leaves
 * no half cluster under the name (its next start would open it): only a `.copy-*` sibling, which
 * the next start removes. False when the name is taken by something else (then the caller loads
 * the tarball, as before).
 */
async function copiedInto(cluster: string, dataDir: string): Promise<boolean> {
  const parent = dirname(dataDir);
  const prefix = `${basename(dataDir)}.copy-`;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (name.startsWith(prefix)) await rm(join(parent, name), { recursive: true, force: true });
  }
  const staging = `${dataDir}.copy-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    await copyCluster(cluster, staging);
    await rename(staging, dataDir);
    return true;
  } catch {
    await rm(staging, { recursive: true, force: true });
    return false;
  }
}

/**
 * A cluster directory copied file by file, all at once, each file flushed: fs.cp walks ~1,200
 * files one after another (~0.7 s), this ~0.1 s. Directories owner-only; files keep their
 * (owner-only) modes.
 */
async function copyCluster(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const relativePath = (entry: Dirent) => relative(from, join(entry.parentPath, entry.name));
  await mkdir(to, { recursive: true, mode: 0o700 });
  const dirs = entries.filter((entry) => entry.isDirectory()).map(relativePath);
  // Sorted, a parent is made before its children.
  for (const dir of dirs.sort()) await mkdir(join(to, dir), { mode: 0o700 });
  await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(relativePath)
      .map(async (file) => {
        await copyFile(join(from, file), join(to, file));
        // Flushed before the rename names it, so a power cut never leaves the name on empty files.
        const copy = await open(join(to, file), "r");
        try {
          await copy.sync();
        } finally {
          await copy.close();
        }
      }),
  );
}

/** node-postgres pool for a private deployment (DATABASE_URL). */
export function openPostgresDatabase(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

/** Migrates over one dedicated connection, so the advisory lock and the DDL share a session. */
export async function migratePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const db = drizzleNodePg({ client, schema }) as unknown as Db;
    await migrateDatabase(
      { kind: "postgres", db, ping: async () => {}, close: async () => {} },
      seedDefaults,
      MIGRATIONS_FOLDER,
    );
  } finally {
    await client.end();
  }
}

/**
 * The embedded database: a new directory starts as a copy of the migrated cluster built at
 * install time (pglite-image.ts; ~0.1 s), else from its tarball (~1 s), else runs initdb and
 * every migration (~5 s). An existing cluster opens as it is.
 *
 * The lock comes first (it lives beside the directory, ADR 0087): two first starts on one new
 * DATA_DIR would otherwise both copy, and one would remove the other's half-made copy under it
 * (`ENOTEMPTY rmdir pglite.copy-*`); now the second stops with the lock's "in use" line.
 */
async function openEmbeddedDatabase(dataDir: string): Promise<Database> {
  const unlock = await lockDataDir(dataDir);
  let loadDataDir: Blob | undefined;
  try {
    const exists = await stat(join(dataDir, "PG_VERSION")).catch(() => undefined);
    const cluster = exists ? undefined : await builtPgliteCluster();
    if (!exists && !(cluster && (await copiedInto(cluster, dataDir)))) {
      const image = await builtPgliteImage();
      if (image) loadDataDir = new Blob([await readFile(image)]);
    }
  } catch (error) {
    await unlock();
    throw error;
  }
  return openPgliteDatabase(dataDir, { loadDataDir, unlock });
}

/**
 * Opens the configured database and brings its schema and its data rules up to date (every
 * start and every `db:migrate`, so Workers deploys get them too).
 */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  let database: Database;
  if (config.DATABASE_URL) {
    await migratePostgres(config.DATABASE_URL);
    database = openPostgresDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  } else {
    database = await openEmbeddedDatabase(`${config.DATA_DIR}/pglite`);
    await migrateDatabase(database, seedDefaults, MIGRATIONS_FOLDER);
  }
  await demoteUnverifiedListedAdmins(database.db, config.ADMIN_EMAILS);
  return database;
}
