import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { openConfiguredDatabase, openPgliteDatabase } from "../../src/runtime/node/database";
import {
  builtPgliteCluster,
  builtPgliteImage,
  pgliteImage,
} from "../../src/runtime/node/pglite-image";

// A fresh embedded start loads the migrated image built at install (issue #13 item 6) instead of
// running initdb and every migration: the cluster it opens is the image's (same system
// identifier, which initdb draws at random), migrated and seeded.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function systemIdentifier(db: Parameters<typeof queryRows>[0]): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select system_identifier::text as id from pg_control_system()`,
  );
  return row!.id;
}

/** Paths under `dir` that group or others may use. */
async function openToOthers(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries.map((entry) => join(entry.parentPath, entry.name));
  const modes = await Promise.all(paths.map(async (p) => [p, (await stat(p)).mode] as const));
  return modes.filter(([, mode]) => mode & 0o077).map(([p, mode]) => `${p} ${mode.toString(8)}`);
}

describe("embedded start from the migrated image", () => {
  it("opens a new DATA_DIR from the image, migrated and seeded, and reopens it as it is", async () => {
    const image = await pgliteImage();
    expect(await builtPgliteImage()).toBe(image);
    // Unpacked beside it: what a fresh start copies.
    expect(await builtPgliteCluster()).toBe(image.replace(/\.tar\.gz$/, ".cluster"));
    const fromImage = await openPgliteDatabase("memory://", {
      loadDataDir: new Blob([await readFile(image)]),
    });
    const imageId = await systemIdentifier(fromImage.db);
    await fromImage.close();

    const dataDir = await mkdtemp(join(tmpdir(), "embedded-image-"));
    dirs.push(dataDir);
    // What a start that died while copying the cluster leaves: a sibling, never the cluster's name.
    const leftover = join(dataDir, "pglite.copy-999-abcdef");
    await mkdir(join(leftover, "base"), { recursive: true });
    await writeFile(join(leftover, "PG_VERSION"), "15\n");
    const config = parseConfig({ APP_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir });
    const first = await openConfiguredDatabase(config);
    expect(await readdir(dataDir)).not.toContain("pglite.copy-999-abcdef");
    expect(await systemIdentifier(first.db)).toBe(imageId);
    const [seeded] = await queryRows<{ plans: number; migrations: number }>(
      first.db,
      sql`select (select count(*)::int from subscription_plans) as plans,
            (select count(*)::int from drizzle.__drizzle_migrations) as migrations`,
    );
    expect(seeded!.plans).toBeGreaterThan(0);
    expect(seeded!.migrations).toBeGreaterThan(15);
    await first.close();
    expect((await stat(join(dataDir, "pglite", "PG_VERSION"))).isFile()).toBe(true);
    // A copy of the cache's cluster, owner-only like every data directory.
    expect(await openToOthers(dataDir)).toEqual([]);

    // The second start finds a cluster and opens it: same identifier, nothing reloaded.
    const again = await openConfiguredDatabase(config);
    expect(await systemIdentifier(again.db)).toBe(imageId);
    await again.close();
    // PostgreSQL rewrote its relation-cache files on that start: still owner-only.
    expect(await openToOthers(dataDir)).toEqual([]);
  });
});
