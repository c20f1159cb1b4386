import { createHash } from "node:crypto";
import {
  link,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { join, relative } from "node:path";
import { migrateDatabase } from "../../db/migrate";
import { openPgliteDatabase } from "./pglite";
import { MIGRATIONS_FOLDER, PROJECT_ROOT } from "./project-root";

/**
 * The migrated PGlite cluster, kept as a tarball keyed by everything it is built from: every
 * file under migrations/, the PGlite and drizzle-orm versions, and RECIPE. A fresh PGlite spends
 * ~5-7 s in initdb and the migrations; loading the tarball takes ~1 s. Built when the package is
 * installed (`npm run db:image`, the postinstall step) and by the tests' global setup; a fresh
 * embedded start (`npm start` on an empty DATA_DIR) copies its unpacked cluster, or loads it,
 * instead of running initdb.
 *
 * The image is migrated but not seeded: the default rows come from src (runtime/seed-defaults.ts),
 * which this key does not cover, so each database seeds itself after loading (~20 ms).
 */
const CACHE_DIR = join(PROJECT_ROOT, "node_modules/.cache/pglite");
/** Bump when the way the image is built changes (not the migrations: those are hashed). */
const RECIPE = "migrated-unseeded-v1";
/** Images of other keys unused this long are removed when a new one is built. */
const STALE_MS = 7 * 24 * 60 * 60 * 1000;

/** The migrated image for the current migrations/ if one was built, else undefined. */
export async function builtPgliteImage(): Promise<string | undefined> {
  const path = join(CACHE_DIR, `${await imageKey()}.tar.gz`);
  const found = await stat(path).catch(() => undefined);
  return found?.isFile() ? path : undefined;
}

/**
 * The image unpacked once into a cluster directory beside it: a fresh start copies it into the
 * new DATA_DIR (~0.1 s for ~40 MB) and opens it as an existing cluster, where loading the tarball
 * into PGlite (gunzip, untar through its file system) takes ~1 s. Undefined when not built.
 */
export async function builtPgliteCluster(): Promise<string | undefined> {
  const dir = join(CACHE_DIR, `${await imageKey()}.cluster`);
  const found = await stat(join(dir, "PG_VERSION")).catch(() => undefined);
  return found?.isFile() ? dir : undefined;
}

/** Path of the migrated image for the current migrations/, building it (and its cluster) on a miss. */
export async function pgliteImage(): Promise<string> {
  await mkdir(CACHE_DIR, { recursive: true });
  const key = await imageKey();
  const path = join(CACHE_DIR, `${key}.tar.gz`);
  await buildImage(path);
  await buildCluster(path, join(CACHE_DIR, `${key}.cluster`));
  return path;
}

async function buildImage(path: string): Promise<void> {
  const now = new Date();
  try {
    // Marks it in use, so pruning by another key's build leaves it alone.
    await utimes(path, now, now);
    return;
  } catch {
    // A miss: build below.
  }
  const database = await openPgliteDatabase("memory://");
  try {
    await migrateDatabase(database, async () => {}, MIGRATIONS_FOLDER);
    const client = (
      database.db as unknown as { $client: { dumpDataDir(c: "gzip"): Promise<Blob> } }
    ).$client;
    const dump = Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer());
    // Written aside and linked into place: a concurrent run never reads half an image, and of
    // two runs that both missed, the first one's stays (the other's link finds it and drops its
    // own), so the cluster unpacked from the image is always of the image that stays.
    const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
    await writeFile(partial, dump);
    try {
      await link(partial, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      await rm(partial, { force: true });
    }
  } finally {
    await database.close();
  }
  await pruneStale(path);
}

async function buildCluster(image: string, dir: string): Promise<void> {
  const now = new Date();
  const found = await stat(join(dir, "PG_VERSION")).catch(() => undefined);
  if (found) {
    await utimes(dir, now, now);
    return;
  }
  // Unpacked aside and renamed, as the image is; a run that loses the race drops its copy.
  const partial = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  const database = await openPgliteDatabase(partial, {
    loadDataDir: new Blob([await readFile(image)]),
    // A name only this process knows: no lock needed, and none left beside the cache.
    unlock: async () => {},
  });
  await database.close();
  try {
    await rename(partial, dir);
  } catch {
    await rm(partial, { recursive: true, force: true });
  }
}

async function imageKey(): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`${RECIPE}\0`);
  for (const pkg of ["@electric-sql/pglite", "drizzle-orm"]) {
    const manifest = join(PROJECT_ROOT, "node_modules", pkg, "package.json");
    const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
    hash.update(`${pkg}@${version}\0`);
  }
  const entries = await readdir(MIGRATIONS_FOLDER, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    hash.update(`${relative(MIGRATIONS_FOLDER, file)}\0`);
    hash.update(await readFile(file));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 32);
}

async function pruneStale(keep: string): Promise<void> {
  const cutoff = Date.now() - STALE_MS;
  for (const name of await readdir(CACHE_DIR)) {
    const path = join(CACHE_DIR, name);
    if (path === keep || path === keep.replace(/\.tar\.gz$/, ".cluster")) continue;
    const info = await stat(path).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(path, { recursive: true, force: true });
  }
}
