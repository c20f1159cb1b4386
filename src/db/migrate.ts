import { sql } from "drizzle-orm";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import type { Database, Db } from "./client";

/**
 * A migration whose file starts with this line runs outside a transaction, one statement (as
 * drizzle's `--> statement-breakpoint` splits them) at a time: `create index concurrently` must,
 * and it is what keeps an index on a busy table from blocking its writes. Each statement must be
 * idempotent (`if not exists`): a run stopped half-way runs them all again. ADR 0120.
 */
export const NO_TRANSACTION_MARKER = "-- migrate: no-transaction";

// drizzle's defaults, which drizzle-kit reads too: a migration is recorded where drizzle records it.
const MIGRATIONS_TABLE = sql`"drizzle"."__drizzle_migrations"`;
const LOCK_KEY = 7_318_004_211;
const LOCK_POLL_MS = 200;

/**
 * How long a transactional migration waits for a table's lock, and how often it tries. An
 * `alter table` queued behind a long transaction (a report, an idle-in-transaction session)
 * holds its place in the lock queue, and every user's query on that table queues behind it: one
 * slow reader becomes an outage. With a lock timeout the migration gives its place up after
 * `lockTimeoutMs`, the queries behind it run, and it tries again after a pause (ADR 0120).
 */
export interface LockRetry {
  lockTimeoutMs: number;
  attempts: number;
  /** The first pause between attempts; doubled each time up to maxPauseMs. */
  pauseMs: number;
  maxPauseMs: number;
}

const LOCK_RETRY: LockRetry = {
  lockTimeoutMs: 5000,
  attempts: 20,
  pauseMs: 1000,
  maxPauseMs: 30_000,
};

/** PostgreSQL's lock_not_available: a statement gave up waiting under lock_timeout. */
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Applies every pending migration in `migrationsFolder` (read from disk: Node only; Workers
 * never migrate, deploys run `npm run db:migrate`), then `seed` (the modules' default rows,
 * runtime/seed-defaults.ts) under the same lock; safe to run from several processes.
 *
 * Pending migrations run in order; consecutive transactional ones in one transaction, by
 * drizzle's own migrator (as before), each no-transaction one (NO_TRANSACTION_MARKER) on its own.
 */
export async function migrateDatabase(
  database: Database,
  seed: (db: Db) => Promise<void>,
  migrationsFolder: string,
  retry: LockRetry = LOCK_RETRY,
): Promise<void> {
  const { db } = database;
  const migrations = readMigrationFiles({ migrationsFolder });
  // The embedded database has one connection: nothing else can hold a lock it waits for.
  const shared = database.kind !== "pglite";
  if (shared) await takeLock(db);
  try {
    await applyPending(database, migrations, migrationsFolder, shared ? retry : undefined);
    await seed(db);
  } finally {
    if (shared) await db.execute(sql`select pg_advisory_unlock(${LOCK_KEY})`);
  }
}

/**
 * The migration lock, asked for again until given rather than waited on: a session blocked in
 * `pg_advisory_lock` holds a snapshot, which `create index concurrently` in the holder's session
 * waits to end, and the holder never lets go: a deadlock that PostgreSQL breaks by failing one.
 */
async function takeLock(db: Db): Promise<void> {
  for (;;) {
    const rows = (await db.execute(
      sql`select pg_try_advisory_lock(${LOCK_KEY}) as "locked"`,
    )) as unknown as { rows: { locked: boolean }[] };
    if (rows.rows[0]?.locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

async function applyPending(
  database: Database,
  migrations: MigrationMeta[],
  migrationsFolder: string,
  retry: LockRetry | undefined,
): Promise<void> {
  const { db } = database;
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  await db.execute(sql`create schema if not exists "drizzle"`);
  await db.execute(
    sql`create table if not exists ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
  );
  const last = (await db.execute(
    sql`select created_at from ${MIGRATIONS_TABLE} order by created_at desc limit 1`,
  )) as unknown as { rows: { created_at: string | number }[] };
  // drizzle's rule: what is newer than the newest applied one is pending.
  const appliedUntil = last.rows[0] === undefined ? undefined : Number(last.rows[0].created_at);
  const pending = migrations.filter(
    (migration) => appliedUntil === undefined || appliedUntil < migration.folderMillis,
  );
  let batch: MigrationMeta[] = [];
  const flush = async () => {
    const run = batch;
    batch = [];
    if (run.length === 0) return;
    const apply = () => internals.dialect.migrate(run, internals.session, { migrationsFolder });
    // drizzle's migrate reads what is applied inside its transaction: a retried batch applies
    // what the failed attempt rolled back, nothing twice.
    await (retry ? withLockTimeout(db, run, retry, apply) : apply());
  };
  for (const migration of pending) {
    if (!isNoTransaction(migration)) {
      batch.push(migration);
      continue;
    }
    await flush();
    await applyOutsideTransaction(db, migration);
  }
  await flush();
}

/**
 * Runs `apply` with the session's lock_timeout set, again after a growing pause each time it
 * gives up on a lock, and with no lock_timeout after it (the no-transaction builds wait on
 * transactions by design, and they block no user's write meanwhile). Past the last attempt the
 * error names the migration and what to look for.
 */
async function withLockTimeout(
  db: Db,
  run: MigrationMeta[],
  retry: LockRetry,
  apply: () => Promise<void>,
): Promise<void> {
  let pause = retry.pauseMs;
  try {
    await db.execute(sql.raw(`set lock_timeout = ${Math.trunc(retry.lockTimeoutMs)}`));
    for (let attempt = 1; ; attempt++) {
      try {
        return await apply();
      } catch (error) {
        if (!isLockTimeout(error)) throw error;
        if (attempt >= retry.attempts) {
          throw new Error(
            `migration (journal "when" ${run.map((m) => m.folderMillis).join(", ")}): a lock it needs stayed taken ` +
              `${retry.attempts} times for ${retry.lockTimeoutMs} ms each; a long transaction ` +
              "holds it (pg_stat_activity, state 'idle in transaction' or an old xact_start)",
          );
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, retry.maxPauseMs);
      }
    }
  } finally {
    await db.execute(sql`set lock_timeout = 0`);
  }
}

function isLockTimeout(error: unknown): boolean {
  for (let e = error; e instanceof Object; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return true;
  }
  return false;
}

function isNoTransaction(migration: Pick<MigrationMeta, "sql">): boolean {
  const firstLine = (migration.sql[0] ?? "").split("\n", 1)[0]?.trim();
  return firstLine === NO_TRANSACTION_MARKER;
}

async function applyOutsideTransaction(db: Db, migration: MigrationMeta): Promise<void> {
  for (const chunk of migration.sql) {
    const statement = withoutLeadingComments(chunk);
    if (statement === "") continue;
    const index = concurrentIndexName(statement);
    if (index) await dropIfInvalid(db, index);
    await db.execute(sql.raw(statement));
    if (index && (await isInvalidIndex(db, index))) {
      throw new Error(`migration: index ${index} was built but is INVALID`);
    }
  }
  // Recorded last: a run stopped before this line applies the (idempotent) statements again.
  await db.execute(
    sql`insert into ${MIGRATIONS_TABLE} ("hash", "created_at") values (${migration.hash}, ${migration.folderMillis})`,
  );
}

function withoutLeadingComments(chunk: string): string {
  const lines = chunk.split("\n");
  while (lines.length > 0 && /^\s*(--.*)?$/.test(lines[0] ?? "")) lines.shift();
  return lines.join("\n").trim();
}

/** The index a `create [unique] index concurrently if not exists NAME` builds, as written. */
function concurrentIndexName(statement: string): string | undefined {
  const match =
    /^create\s+(?:unique\s+)?index\s+concurrently\s+if\s+not\s+exists\s+((?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?)/i.exec(
      statement,
    );
  return match?.[1];
}

async function isInvalidIndex(db: Db, index: string): Promise<boolean> {
  const rows = (await db.execute(
    sql`select 1 from pg_index where indexrelid = to_regclass(${index}) and not indisvalid`,
  )) as unknown as { rows: unknown[] };
  return rows.rows.length > 0;
}

/**
 * A concurrent build that failed (a duplicate for a unique index, a cancel, a crash) leaves the
 * index behind, INVALID: `if not exists` would then keep it as it is, unused by every query and
 * still paid for by every write. It is dropped (concurrently: no write waits) and built again.
 */
async function dropIfInvalid(db: Db, index: string): Promise<void> {
  if (await isInvalidIndex(db, index)) {
    await db.execute(sql.raw(`drop index concurrently if exists ${index}`));
  }
}
