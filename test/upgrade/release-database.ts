import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import type { Db } from "../../src/db/client";
import { migrateDatabase } from "../../src/db/migrate";
import {
  migratePostgres,
  openPgliteDatabase,
  openPostgresDatabase,
} from "../../src/runtime/node/database";
import { MIGRATIONS_FOLDER } from "../../src/runtime/node/project-root";

/**
 * A database as the last release left it, then upgraded (ADR 0120): the release's migrations
 * (migrations are append-only, so the files up to its last one are the release's) applied by
 * drizzle's migrator as the release applied them, its data (test/upgrade/fixtures/<version>.sql,
 * written by make-fixture.ts against that schema); the caller then migrates it as a start does.
 */

interface Release {
  version: string;
  commit: string;
  lastMigration: string;
}

export async function lastRelease(): Promise<Release> {
  const text = await readFile(join(MIGRATIONS_FOLDER, "releases.json"), "utf8");
  const { releases } = JSON.parse(text) as { releases: Release[] };
  return releases.at(-1)!;
}

export const fixturePath = (release: Release) =>
  join(import.meta.dirname, "fixtures", `${release.version}.sql`);
export const fixtureLoginPath = (release: Release) =>
  join(import.meta.dirname, "fixtures", `${release.version}.json`);

/** A copy of migrations/ whose journal ends at the release's last migration. */
async function releaseMigrationsFolder(release: Release): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), `ta-release-${release.version}-`));
  await mkdir(join(folder, "meta"));
  const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8"));
  const end = journal.entries.findIndex(
    (entry: { tag: string }) => entry.tag === release.lastMigration,
  );
  if (end < 0) throw new Error(`releases.json: ${release.lastMigration} is not in the journal`);
  journal.entries = journal.entries.slice(0, end + 1);
  for (const entry of journal.entries as { tag: string }[]) {
    await copyFile(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  }
  await writeFile(join(folder, "meta/_journal.json"), JSON.stringify(journal));
  return folder;
}

/** The release's schema, migrated by drizzle's own migrator, as every release before 0120 did. */
export async function migrateToRelease(db: Db, release: Release): Promise<void> {
  const migrationsFolder = await releaseMigrationsFolder(release);
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  await internals.dialect.migrate(readMigrationFiles({ migrationsFolder }), internals.session, {
    migrationsFolder,
  });
}

/** Runs a file of many statements: PGlite's exec, node-postgres' simple query. */
async function runScript(db: Db, text: string): Promise<void> {
  const client = (db as unknown as { $client: { exec?(t: string): Promise<unknown> } }).$client;
  if (client.exec) await client.exec(text);
  else await (client as unknown as { query(t: string): Promise<unknown> }).query(text);
}

/** The release's schema and data, for the caller to upgrade as production does. */
export async function loadRelease(db: Db): Promise<Release> {
  const release = await lastRelease();
  await migrateToRelease(db, release);
  await runScript(db, await readFile(fixturePath(release), "utf8"));
  return release;
}

/**
 * `TEST_FROM_RELEASE=1`: the HTTP suites start from the upgraded release database instead of a
 * fresh one (test/support/global-setup.ts), so they run against what an upgrade leaves. The
 * PGlite image is unseeded, as the fresh one is: the harness seeds each cluster it loads.
 */
export const fromRelease = Boolean(process.env.TEST_FROM_RELEASE);

let upgradedImage: Promise<string> | undefined;
export function upgradedPgliteImage(): Promise<string> {
  upgradedImage ??= (async () => {
    const database = await openPgliteDatabase("memory://");
    try {
      await loadRelease(database.db);
      await migrateDatabase(database, async () => {}, MIGRATIONS_FOLDER);
      const client = (
        database.db as unknown as { $client: { dumpDataDir(c: "gzip"): Promise<Blob> } }
      ).$client;
      const path = join(await mkdtemp(join(tmpdir(), "ta-upgraded-")), "image.tar.gz");
      await writeFile(path, Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer()));
      return path;
    } finally {
      await database.close();
    }
  })();
  return upgradedImage;
}

/** An empty PostgreSQL database brought to the release with its data, then migrated and seeded. */
export async function upgradePostgres(url: string): Promise<void> {
  const database = openPostgresDatabase(url, 2);
  try {
    await loadRelease(database.db);
  } finally {
    await database.close();
  }
  await migratePostgres(url);
}
