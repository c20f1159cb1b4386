import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import type { Database, Db } from "./client";

// Node-only: reads migrations/ from disk. Workers never migrate; deploys run `npm run db:migrate`.
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../migrations", import.meta.url));

/**
 * Applies every pending migration, then `seed` (the modules' default rows,
 * runtime/seed-defaults.ts) under the same lock; safe to run from several processes.
 */
export async function migrateDatabase(
  database: Database,
  seed: (db: Db) => Promise<void>,
): Promise<void> {
  const { db } = database;
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  const lockKey = 7_318_004_211;
  if (database.kind !== "pglite") await db.execute(sql`select pg_advisory_lock(${lockKey})`);
  try {
    await internals.dialect.migrate(migrations, internals.session, {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
    await seed(db);
  } finally {
    if (database.kind !== "pglite") await db.execute(sql`select pg_advisory_unlock(${lockKey})`);
  }
}
