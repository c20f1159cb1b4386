import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, queryRows } from "../../src/db/client";
import { migrateDatabase } from "../../src/db/migrate";
import {
  migratePostgres,
  openPgliteDatabase,
  openPostgresDatabase,
} from "../../src/runtime/node/database";
import { MIGRATIONS_FOLDER } from "../../src/runtime/node/project-root";
import { seedDefaults } from "../../src/runtime/seed-defaults";
import { call } from "../support/client";
import { withDatabase } from "../support/global-setup";
import { createTestContext, onPostgres, type TestContext } from "../support/harness";
import {
  fixtureLoginPath,
  fromRelease,
  lastRelease,
  loadRelease,
} from "../upgrade/release-database";

/**
 * The upgrade a deployment makes (issue #25, ADR 0120): a database at the last release's schema
 * holding that release's data (test/upgrade/fixtures, made through the release's routes) is
 * migrated as a start migrates it, and the app then serves that data: its accounts log in, their
 * customers, products and quotations read back, every wallet equals its ledger and its lots, and
 * new writes land beside the old rows.
 */

let database: Database;
let dropDatabase = async () => {};
let ctx: TestContext;
let fixture: {
  password: string;
  owner: { email: string; id: string };
  member: { email: string; id: string };
  customer_id: string;
  product_id: string;
  balance: { balance: number };
};

beforeAll(async () => {
  fixture = JSON.parse(await readFile(fixtureLoginPath(await lastRelease()), "utf8"));
  if (onPostgres) {
    const base = process.env.DATABASE_URL!;
    const name = `ta_upgrade_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = withDatabase(base, name);
    database = openPostgresDatabase(url, 10);
    await loadRelease(database.db);
    // What every start and `npm run db:migrate` run (runtime/node/database.ts).
    await migratePostgres(url);
    dropDatabase = async () => {
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    };
  } else {
    database = await openPgliteDatabase("memory://");
    await loadRelease(database.db);
    await migrateDatabase(database, seedDefaults, MIGRATIONS_FOLDER);
  }
  ctx = await createTestContext({ runtime: { database } });
  // initdb and every migration from nothing, not the cached image: minutes on a busy machine.
}, 300_000);

afterAll(async () => {
  await database?.close();
  await dropDatabase();
});

async function login(email: string) {
  const { status, body } = await call(ctx.app, "/api/v1/auth/login", {
    json: { email, password: fixture.password },
    ip: "198.51.100.7",
  });
  expect(status).toBe(200);
  return body.access_token as string;
}

describe("upgrade from the last release", () => {
  // With TEST_FROM_RELEASE=1 (.ci/run) every HTTP file's database is this upgrade's: the other
  // suites run then against the release's data, not an empty schema.
  it.skipIf(!fromRelease)("the suites' own databases start from the upgraded release", async () => {
    const [owner] = await queryRows<{ email: string }>(
      ctx.database.db,
      sql`select email from users where id = ${fixture.owner.id}::uuid`,
    );
    expect(owner?.email).toBe(fixture.owner.email);
  });

  it("records every migration once, as drizzle's migrator does", async () => {
    const journal = JSON.parse(await readFile(`${MIGRATIONS_FOLDER}/meta/_journal.json`, "utf8"));
    const [row] = await queryRows<{ n: number; distinct_n: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct created_at)::int as distinct_n from drizzle.__drizzle_migrations`,
    );
    expect(row).toEqual({ n: journal.entries.length, distinct_n: journal.entries.length });
  });

  it("the release's accounts log in and read their customers, products and quotations", async () => {
    const token = await login(fixture.owner.email);
    const me = await call(ctx.app, "/api/v1/auth/me", { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: fixture.owner.id, name: "Owner Zhang" });

    const customer = await call(ctx.app, `/api/v1/customers/${fixture.customer_id}`, { token });
    expect(customer.status).toBe(200);
    expect(customer.body).toMatchObject({
      company: "Acme Trading 升级",
      email: "anna@acme.example",
    });

    const products = await call(ctx.app, "/api/v1/products", { token });
    expect(products.status).toBe(200);
    expect(products.body.items.map((p: { id: string }) => p.id)).toContain(fixture.product_id);

    const quotations = await call(ctx.app, "/api/v1/quotations", { token });
    expect(quotations.status).toBe(200);
    const [quotation] = quotations.body.items.filter(
      (q: { customer_id: string }) => q.customer_id === fixture.customer_id,
    );
    expect(quotation).toBeDefined();
    const full = await call(ctx.app, `/api/v1/quotations/${quotation.id}`, { token });
    expect(full.status).toBe(200);
    expect(full.body.items).toHaveLength(2);
    expect(full.body.total).toBe(10 * 1299 + 10 * 150);

    // The member joined the owner's company before the upgrade and still works in it.
    const memberToken = await login(fixture.member.email);
    const memberMe = await call(ctx.app, "/api/v1/auth/me", { token: memberToken });
    expect(memberMe.status).toBe(200);
    const [orgs] = await queryRows<{ same: boolean }>(
      database.db,
      sql`select (select org_id from org_members where user_id = ${fixture.owner.id}::uuid)
        = (select org_id from org_members where user_id = ${fixture.member.id}::uuid) as same`,
    );
    expect(orgs?.same).toBe(true);
  });

  it("every wallet equals its ledger and its lots; the owner's balance is the release's", async () => {
    const wallets = await queryRows<{
      org_id: string;
      balance: number;
      ledger: number;
      lots: number;
    }>(
      database.db,
      sql`select c.org_id, c.balance::int as balance,
          (select coalesce(sum(delta), 0)::int from credit_ledger l where l.org_id = c.org_id) as ledger,
          (select coalesce(sum(remaining), 0)::int from credit_lots t where t.org_id = c.org_id) as lots
        from org_credits c`,
    );
    expect(wallets.length).toBeGreaterThanOrEqual(3);
    for (const wallet of wallets) {
      expect(wallet.ledger).toBe(wallet.balance);
      expect(wallet.lots).toBe(wallet.balance);
    }
    const token = await login(fixture.owner.email);
    const balance = await call(ctx.app, "/api/v1/credits/balance", { token });
    expect(balance.status).toBe(200);
    expect(balance.body.balance).toBe(fixture.balance.balance);
  });

  it("new rows go in beside the release's (keys and sequences carried over)", async () => {
    const token = await login(fixture.owner.email);
    const customer = await call(ctx.app, "/api/v1/customers", {
      token,
      json: { company: "Cobalt Supplies" },
    });
    expect(customer.status).toBe(201);
    const quotation = await call(ctx.app, "/api/v1/quotations", {
      token,
      json: {
        customer_id: customer.body.id,
        currency: "USD",
        items: [{ product_id: fixture.product_id, quantity: 2 }],
      },
    });
    expect(quotation.status).toBe(201);
    const list = await call(ctx.app, "/api/v1/quotations", { token });
    const numbers = list.body.items.map((q: { quote_no: string }) => q.quote_no);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toHaveLength(2);
  });
});
