import { chmod, mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { Database, Db } from "../../db/client";
import * as schema from "../../db/schema";
import { lockDataDir } from "./data-dir-lock";

// Opening an embedded PGlite cluster: shared by database.ts (the server's database) and
// pglite-image.ts (building the migrated image), which import it and not each other.

/**
 * Embedded Postgres (WASM): a directory on disk, or memory when dataDir is "memory://". A
 * directory is locked for this process until close (data-dir-lock.ts): a second process gets
 * DataDirLockedError instead of becoming a second writer. `unlock`: the caller took the lock
 * already (to prepare the directory under it); it is released on close, or on a failed open.
 */
export async function openPgliteDatabase(
  dataDir: string,
  options: {
    loadDataDir?: Blob | File;
    unlock?: () => Promise<void>;
    /**
     * PGlite's compiled module and file bundle, to reuse instead of loading them again: the
     * tests open one cluster per file and keep these per worker (test/support/harness.ts).
     */
    assets?: Pick<PGliteOptions, "pgliteWasmModule" | "fsBundle">;
  } = {},
): Promise<Database> {
  const onDisk = !dataDir.startsWith("memory://");
  const unlock = options.unlock ?? (onDisk ? await lockDataDir(dataDir) : async () => {});
  let client: PGlite;
  let tightenFiles = false;
  try {
    // PGlite unpacks a new cluster world-writable (0666): a directory just created, or one that
    // was opened up, has its every file tightened once; an owner-only one is left as it is
    // (files PGlite adds later are created 0600), so a restart does not walk 1,200 files.
    tightenFiles = onDisk && (await ownerOnlyDirectory(dataDir));
    // pg_trgm and btree_gin serve the customer search (migration 0007).
    client = await PGlite.create(dataDir, {
      loadDataDir: options.loadDataDir,
      extensions: { btree_gin, pg_trgm },
      ...options.assets,
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  if (tightenFiles) await ownerOnlyTree(dataDir);
  else if (onDisk) await ownerOnlyRelcacheFiles(dataDir);
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

/**
 * Creates `dir` (and missing parents) owner-only, or tightens an existing `dir` that is wider;
 * true when it did either. The parent (DATA_DIR) is left as it is when it existed: it may be a
 * folder of the operator's (`DATA_DIR=.`); the database directory itself is always ours.
 */
async function ownerOnlyDirectory(dir: string): Promise<boolean> {
  const created = await mkdir(dir, { recursive: true, mode: 0o700 });
  const { mode } = await stat(dir);
  if (mode & 0o077) await chmod(dir, 0o700);
  return created !== undefined || (mode & 0o077) !== 0;
}

/**
 * PostgreSQL rewrites its relation-cache init files at every start, and PGlite creates them
 * 0644: owner-only again, without walking the cluster.
 */
async function ownerOnlyRelcacheFiles(dataDir: string): Promise<void> {
  const databases = await readdir(join(dataDir, "base")).catch(() => [] as string[]);
  const files = [join(dataDir, "global"), ...databases.map((d) => join(dataDir, "base", d))].map(
    (dir) => join(dir, "pg_internal.init"),
  );
  await Promise.all(files.map((file) => chmod(file, 0o600).catch(() => {})));
}

/** Every directory under `root` 0700 and every file 0600. */
async function ownerOnlyTree(root: string): Promise<void> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  await Promise.all(
    entries.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      const wanted = entry.isDirectory() ? 0o700 : 0o600;
      const { mode } = await stat(path);
      if ((mode & 0o777) !== wanted) await chmod(path, wanted);
    }),
  );
}
