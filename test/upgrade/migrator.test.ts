import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, type Db, queryRows } from "../../src/db/client";
import { migrateDatabase, NO_TRANSACTION_MARKER } from "../../src/db/migrate";
import { openPgliteDatabase } from "../../src/runtime/node/database";
import { withDatabase } from "../support/global-setup";

/**
 * The migrator (src/db/migrate.ts, ADR 0120) on both databases: a no-transaction migration
 * between transactional ones builds its index concurrently (which fails inside a transaction),
 * is recorded as drizzle records the others, recovers from a failed build's INVALID index, and
 * two migrators at once (two workers starting) both finish.
 */

const BREAK = "\n--> statement-breakpoint\n";
const noSeed = async () => {};
const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A migrations folder as drizzle-kit writes it: numbered files and meta/_journal.json. */
async function migrationsFolder(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "ta-migrator-"));
  folders.push(folder);
  await mkdir(join(folder, "meta"));
  const entries = Object.keys(files).map((tag, idx) => ({
    idx,
    version: "7",
    when: 1_800_000_000_000 + idx * 1000,
    tag,
    breakpoints: true,
  }));
  for (const [tag, text] of Object.entries(files))
    await writeFile(join(folder, `${tag}.sql`), text);
  await writeFile(
    join(folder, "meta/_journal.json"),
    JSON.stringify({ version: "7", dialect: "postgresql", entries }),
  );
  return folder;
}

const FILES = {
  "0000_orders": `create table "orders" ("id" serial primary key, "ref" text not null)${BREAK}insert into "orders" ("ref") select 'r' || n from generate_series(1, 50) n`,
  "0001_orders_ref": `${NO_TRANSACTION_MARKER}\n-- the ref is unique: built without blocking writes\ncreate unique index concurrently if not exists "orders_ref_idx" on "orders" ("ref")${BREAK}create index concurrently if not exists "orders_id_ref_idx" on "orders" ("id", "ref")${BREAK}`,
  "0002_orders_note": `alter table "orders" add column "note" text`,
};

interface Target {
  open(): Promise<Database>;
}

const pglite: Target = { open: () => openPgliteDatabase("memory://") };

/** An empty PostgreSQL database per call, on one dedicated connection as migratePostgres uses. */
const postgres: Target = {
  async open() {
    const base = process.env.DATABASE_URL!;
    const name = `ta_migrator_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = withDatabase(base, name);
    const clients: pg.Client[] = [];
    const connect = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      return drizzleNodePg({ client }) as unknown as Db;
    };
    const database: Database & { another(): Promise<Database> } = {
      kind: "postgres",
      db: await connect(),
      ping: async () => {},
      close: async () => {
        for (const client of clients) await client.end();
        const cleanup = new pg.Client({ connectionString: base });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
      another: async () => ({ ...database, db: await connect() }),
    };
    return database;
  },
};

const recorded = (db: Db) =>
  queryRows<{ hash: string; created_at: string }>(
    db,
    sql`select hash, created_at::text from drizzle.__drizzle_migrations order by id`,
  );
const indexes = (db: Db) =>
  queryRows<{ name: string; valid: boolean }>(
    db,
    sql`select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = 'orders'::regclass and not i.indisprimary order by 1`,
  );

describe.each([
  ["pglite", pglite, false],
  ["postgres", postgres, !process.env.DATABASE_URL],
] as const)("migrator on %s", (_kind, target, skip) => {
  it.skipIf(skip)(
    "runs a no-transaction migration between transactional ones, recorded as drizzle records them",
    async () => {
      const folder = await migrationsFolder(FILES);
      const database = await target.open();
      try {
        await migrateDatabase(database, noSeed, folder);
        const { db } = database;
        // Built concurrently: inside a transaction the statement fails, so this proves it ran outside.
        expect(await indexes(db)).toEqual([
          { name: "orders_id_ref_idx", valid: true },
          { name: "orders_ref_idx", valid: true },
        ]);
        expect(await queryRows(db, sql`select "note" from "orders" limit 1`)).toEqual([
          { note: null },
        ]);
        const expected = Object.entries(FILES).map(([, text], idx) => ({
          hash: createHash("sha256").update(text).digest("hex"),
          created_at: String(1_800_000_000_000 + idx * 1000),
        }));
        expect(await recorded(db)).toEqual(expected);

        // drizzle's own migrator agrees: nothing is pending, nothing is applied twice.
        const internals = db as unknown as { dialect: PgDialect; session: PgSession };
        await internals.dialect.migrate(
          readMigrationFiles({ migrationsFolder: folder }),
          internals.session,
          {
            migrationsFolder: folder,
          },
        );
        await migrateDatabase(database, noSeed, folder);
        expect(await recorded(db)).toEqual(expected);
      } finally {
        await database.close();
      }
    },
  );

  it.skipIf(skip)(
    "drops the INVALID index a failed concurrent build left, and builds it again on the next run",
    async () => {
      const folder = await migrationsFolder(FILES);
      const database = await target.open();
      try {
        const { db } = database;
        const first = await migrationsFolder({ "0000_orders": FILES["0000_orders"] });
        await migrateDatabase(database, noSeed, first);
        await db.execute(sql`insert into "orders" ("ref") values ('r7')`);

        await expect(migrateDatabase(database, noSeed, folder)).rejects.toThrow();
        expect(await indexes(db)).toEqual([{ name: "orders_ref_idx", valid: false }]);
        expect(await recorded(db)).toHaveLength(1);

        await db.execute(sql`delete from "orders" where "ref" = 'r7' and "id" > 50`);
        await migrateDatabase(database, noSeed, folder);
        expect(await indexes(db)).toEqual([
          { name: "orders_id_ref_idx", valid: true },
          { name: "orders_ref_idx", valid: true },
        ]);
        expect(await recorded(db)).toHaveLength(3);
      } finally {
        await database.close();
      }
    },
  );
});

describe.skipIf(!process.env.DATABASE_URL)("migrator on postgres, two at once", () => {
  it("both finish (the one waiting for the lock does not hold up the concurrent build) and each migration is recorded once", async () => {
    const folder = await migrationsFolder(FILES);
    const database = (await postgres.open()) as Database & { another(): Promise<Database> };
    try {
      const second = await database.another();
      const third = await database.another();
      await Promise.all([
        migrateDatabase(database, noSeed, folder),
        migrateDatabase(second, noSeed, folder),
        migrateDatabase(third, noSeed, folder),
      ]);
      expect(await recorded(database.db)).toHaveLength(3);
      expect((await indexes(database.db)).every((index) => index.valid)).toBe(true);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)(
  "migrator on postgres, a table's lock held by a long transaction",
  () => {
    const TABLE = { "0000_orders": FILES["0000_orders"] };
    const WITH_ALTER = { ...TABLE, "0001_orders_note": FILES["0002_orders_note"] };
    const holdOrders = async (db: Db) => {
      await db.execute(sql`begin`);
      await db.execute(sql`select * from "orders" limit 1`);
    };
    const noteColumn = (db: Db) =>
      queryRows(
        db,
        sql`select 1 from information_schema.columns where table_name = 'orders' and column_name = 'note'`,
      );

    it("gives its place in the lock queue up while it waits, so users' queries on the table run, and applies once the lock is free", async () => {
      const database = (await postgres.open()) as Database & { another(): Promise<Database> };
      try {
        await migrateDatabase(database, noSeed, await migrationsFolder(TABLE));
        const holder = (await database.another()).db;
        const user = (await database.another()).db;
        await holdOrders(holder);
        const retry = { lockTimeoutMs: 150, attempts: 200, pauseMs: 50, maxPauseMs: 100 };
        const migrating = migrateDatabase(
          database,
          noSeed,
          await migrationsFolder(WITH_ALTER),
          retry,
        );
        // Without the lock timeout the alter waits in the queue for good and this read queues
        // behind it until the holder ends: the statement timeout would cancel it.
        await user.execute(sql`set statement_timeout = 3000`);
        for (let i = 0; i < 5; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(await queryRows(user, sql`select count(*)::int as n from "orders"`)).toEqual([
            { n: 50 },
          ]);
        }
        expect(await noteColumn(user)).toEqual([]);
        await holder.execute(sql`commit`);
        await migrating;
        expect(await noteColumn(user)).toHaveLength(1);
        expect(await recorded(user)).toHaveLength(2);
      } finally {
        await database.close();
      }
    });

    it("stops after its attempts with an error that says what holds it, applies nothing, and a later run applies it", async () => {
      const database = (await postgres.open()) as Database & { another(): Promise<Database> };
      try {
        await migrateDatabase(database, noSeed, await migrationsFolder(TABLE));
        const holder = (await database.another()).db;
        await holdOrders(holder);
        const folder = await migrationsFolder(WITH_ALTER);
        const retry = { lockTimeoutMs: 100, attempts: 3, pauseMs: 20, maxPauseMs: 20 };
        await expect(migrateDatabase(database, noSeed, folder, retry)).rejects.toThrow(
          /stayed taken 3 times .*long transaction holds it/,
        );
        expect(await recorded(database.db)).toHaveLength(1);
        expect(await noteColumn(database.db)).toEqual([]);
        // The session's lock_timeout is back to none: nothing later on this connection inherits it.
        expect(
          await queryRows(database.db, sql`select current_setting('lock_timeout') as t`),
        ).toEqual([{ t: "0" }]);
        await holder.execute(sql`commit`);
        await migrateDatabase(database, noSeed, folder, retry);
        expect(await noteColumn(database.db)).toHaveLength(1);
      } finally {
        await database.close();
      }
    });
  },
);
