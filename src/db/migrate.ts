import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import type { Database, Db } from "./client";

/**
 * Applies every pending migration in `migrationsFolder` (read from disk: Node only; Workers
 * never migrate, deploys run `npm run db:migrate`), then `seed` (the modules' default rows,
 * runtime/seed-defaults.ts) under the same lock; safe to run from several processes.
 */
export async function migrateDatabase(
  database: Database,
  seed: (db: Db) => Promise<void>,
  migrationsFolder: string,
): Promise<void> {
  const { db } = database;
  const migrations = readMigrationFiles({ migrationsFolder });
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  const lockKey = 7_318_004_211;
  if (database.kind !== "pglite") await db.execute(sql`select pg_advisory_lock(${lockKey})`);
  try {
    await internals.dialect.migrate(migrations, internals.session, { migrationsFolder });
    await seed(db);
  } finally {
    if (database.kind !== "pglite") await db.execute(sql`select pg_advisory_unlock(${lockKey})`);
  }
}
