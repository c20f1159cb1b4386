import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import { systemClock } from "../lib/clock";
import { seedRatesSnapshot } from "../modules/exchange/service";
import type { Database } from "./client";
import { seedDefaults } from "./seed";

// Node-only: reads migrations/ from disk. Workers never migrate; deploys run `npm run db:migrate`.
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../migrations", import.meta.url));

/** Applies every pending migration, then seeds defaults; safe to run from several processes. */
export async function migrateDatabase(database: Database): Promise<void> {
  const { db } = database;
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  const lockKey = 7_318_004_211;
  if (database.kind !== "pglite") await db.execute(sql`select pg_advisory_lock(${lockKey})`);
  try {
    await internals.dialect.migrate(migrations, internals.session, {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
    await seedDefaults(db);
    // The shipped snapshot's day, if not stored yet: the fallback when no refresh has run.
    await seedRatesSnapshot({ db, clock: systemClock });
  } finally {
    if (database.kind !== "pglite") await db.execute(sql`select pg_advisory_unlock(${lockKey})`);
  }
}
