import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, queryRows } from "../../src/db/client";
import { migrateDatabase } from "../../src/db/migrate";
import { DEFAULT_PLANS } from "../../src/modules/credits/catalog";
import {
  migratePostgres,
  openPgliteDatabase,
  openPostgresDatabase,
} from "../../src/runtime/node/database";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { MIGRATIONS_FOLDER } from "../../src/runtime/node/project-root";
import { seedDefaults } from "../../src/runtime/seed-defaults";
import { api, call, expectStatus, randomEmail, randomIp } from "../support/client";
import { withDatabase } from "../support/global-setup";
import { createTestContext, onPostgres } from "../support/harness";

/**
 * Company workspaces (issue #22), "Done when": the migration, tested from a database populated
 * at the schema before it. A database migrated up to 0023 only gets two accounts with their
 * work (held customers, follow-ups, products with SKUs, quotations with items, discovery records
 * and jobs, agent pipelines), credits (lots, ledger, consumptions, a hold), a paid plan with an
 * end and a trial; then every migration after 0023 runs (whatever exists when this runs: the
 * wallet and the plan moved in later ones), and nothing may be lost: each account owns a
 * personal organisation holding every row, and the app shows the same balances, plans and
 * customers as before.
 */

const LAST_OLD = "0023_";

/** A fresh, empty database of the kind this run tests. */
async function openEmptyDatabase(): Promise<{ database: Database; migrateAll(): Promise<void> }> {
  if (!onPostgres) {
    const database = await openPgliteDatabase("memory://");
    return {
      database,
      migrateAll: () => migrateDatabase(database, seedDefaults, MIGRATIONS_FOLDER),
    };
  }
  const base = process.env.DATABASE_URL!;
  const name = `ta_migration_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = withDatabase(base, name);
  const database = openPostgresDatabase(url, 5);
  return {
    database: {
      ...database,
      close: async () => {
        await database.close();
        const cleanup = new pg.Client({ connectionString: base });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    },
    migrateAll: () => migratePostgres(url),
  };
}

/** Applies the journal's migrations up to and including 0023, as a deployment of today had. */
async function migrateUpToOld(database: Database) {
  const journal = JSON.parse(
    await readFile(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8"),
  ) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag.startsWith(LAST_OLD));
  expect(last, "migration 0023 is in the journal").toBeGreaterThan(0);
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const internals = database.db as unknown as { dialect: PgDialect; session: PgSession };
  await internals.dialect.migrate(migrations.slice(0, last + 1), internals.session, {
    migrationsFolder: MIGRATIONS_FOLDER,
  });
  return journal.entries.length - last - 1;
}

const { database, migrateAll } = await openEmptyDatabase();
afterAll(() => database.close());
const laterMigrations = await migrateUpToOld(database);
const run = (query: SQL) => queryRows<Record<string, unknown>>(database.db, query);

const DAY = 86_400_000;
const PASSWORD = "correct horse battery";
const paidUntil = new Date(Date.now() + 30 * DAY).toISOString();
const trialUntil = new Date(Date.now() + 7 * DAY).toISOString();

interface OldAccount {
  id: string;
  email: string;
  customers: string[];
  balance: number;
}
const paid: OldAccount = { id: randomUUID(), email: randomEmail(), customers: [], balance: 0 };
const trial: OldAccount = { id: randomUUID(), email: randomEmail(), customers: [], balance: 0 };
const hold = { consumptionId: randomUUID() };

/** The tables this test fills, and the counts before the migrations. */
const WORK_TABLES = [
  "customers",
  "followup_logs",
  "products",
  "quotations",
  "discovery_records",
  "discovery_jobs",
  "agent_pipelines",
] as const;
const CREDIT_TABLES = ["credit_lots", "credit_ledger", "credit_consumptions", "credit_holds"];
const countsBefore: Record<string, number> = {};
/** A company as discovery saved it. */
const FOUND = {
  name: "Delta AG",
  website: "https://delta.example/",
  country: "Germany",
  summary: "Imports LED panels",
  fit_score: 80,
  contact: { email: "sales@delta.example", phone: null },
  sources: ["https://delta.example/"],
};

/** The schema as of 0023: plain SQL, as that version of the app wrote it. */
async function populateOldSchema() {
  for (const plan of DEFAULT_PLANS) {
    const { seats: _, ...limits } = plan.limits as Record<string, number>;
    await run(sql`insert into subscription_plans
        (code, name, tier, monthly_price, monthly_credits, features, limits, sort_order)
      values (${plan.code}, ${plan.name}, ${plan.tier}, ${plan.monthlyPrice},
        ${plan.monthlyCredits}, ${JSON.stringify(plan.features)}::jsonb,
        ${JSON.stringify(limits)}::jsonb, ${plan.sortOrder})`);
  }
  const hash = await createNodePasswordHasher().hash(PASSWORD);
  for (const [account, plan, expires, trialEnds, company] of [
    [paid, "business", paidUntil, null, "Paid Trading Co"],
    [trial, "pro", trialUntil, trialUntil, null],
  ] as const) {
    await run(sql`insert into users (id, email, email_verified_at, password_hash, name, company,
        plan, plan_expires_at, trial_ends_at, referral_code)
      values (${account.id}, ${account.email}, now(), ${hash}, ${`Seller ${account.id.slice(0, 4)}`},
        ${company}, ${plan}, ${expires}::timestamptz, ${trialEnds}::timestamptz,
        ${`R${account.id.slice(0, 8)}`})`);
  }

  // Work: the same SKU and quote number for both (unique per user then, per organisation now).
  for (const [account, companies] of [
    [paid, ["Alpha Imports", "Beta Trading"]],
    [trial, ["Gamma GmbH"]],
  ] as const) {
    for (const company of companies) {
      const id = randomUUID();
      account.customers.push(id);
      await run(sql`insert into customers (id, user_id, company, email, status, tags)
        values (${id}, ${account.id}, ${company}, ${`buyer@${company.split(" ")[0]!.toLowerCase()}.example`},
          'contacted', '["led"]'::jsonb)`);
    }
    const customer = account.customers[0]!;
    await run(sql`insert into followup_logs (user_id, customer_id, channel, note, contacted_at)
      values (${account.id}, ${customer}, 'email', 'Sent the catalogue', now() - interval '2 days')`);
    const product = randomUUID();
    await run(sql`insert into products (id, user_id, name, sku, price, currency)
      values (${product}, ${account.id}, 'LED panel', 'SKU-LED-1', 1250, 'USD')`);
    const quotation = randomUUID();
    await run(sql`insert into quotations (id, user_id, customer_id, quote_no, currency, subtotal,
        total, valid_until)
      values (${quotation}, ${account.id}, ${customer}, 'Q-2026-0001', 'USD', 2500, 2500,
        current_date + 30)`);
    await run(sql`insert into quotation_items (quotation_id, product_id, position, name, quantity,
        unit_price, line_total)
      values (${quotation}, ${product}, 1, 'LED panel', 2, 1250, 2500)`);
    const record = randomUUID();
    await run(sql`insert into discovery_records (id, user_id, product, market, companies)
      values (${record}, ${account.id}, 'LED panels', 'Germany',
        ${JSON.stringify([FOUND])}::jsonb)`);
    await run(sql`insert into discovery_jobs (user_id, status, product, market, credits_charged,
        balance_after, progress, record_id, finished_at)
      values (${account.id}, 'succeeded', 'LED panels', 'Germany', 0, 0, '{}'::jsonb, ${record},
        now())`);
    // The agent is the business plan's (the trial's pro has no agent runs).
    if (account === paid) {
      await run(sql`insert into agent_pipelines (user_id, status, product, market, pipeline_data,
          finished_at)
        values (${account.id}, 'succeeded', 'LED panels', 'Germany', '{"leads":[]}'::jsonb, now())`);
    }
  }

  // Credits, as the credit functions of 0023 left them: the balance is the ledger's sum and
  // the open lots' remaining.
  const lot = async (account: OldAccount, kind: string, granted: number, remaining: number) => {
    const id = randomUUID();
    await run(sql`insert into credit_lots (id, user_id, kind, granted, remaining, source_type,
        source_id)
      values (${id}, ${account.id}, ${kind}, ${granted}, ${remaining},
        ${kind === "purchase" ? "order" : "user"}, ${`${kind}-${account.id}`})`);
    return id;
  };
  const ledger = async (
    account: OldAccount,
    row: { delta: number; kind: string; source: string; operation?: string; lots?: unknown },
  ) => {
    account.balance += row.delta;
    const id = randomUUID();
    await run(sql`insert into credit_ledger (id, user_id, delta, balance_after, kind, source_type,
        source_id, operation, lots)
      values (${id}, ${account.id}, ${row.delta}, ${account.balance}, ${row.kind}, ${row.source},
        ${`${row.kind}-${account.id}-${id}`}, ${row.operation ?? null},
        ${row.lots ? JSON.stringify(row.lots) : null}::jsonb)`);
    return id;
  };
  const consume = async (account: OldAccount, lotId: string, cost: number, id = randomUUID()) => {
    const ledgerId = await ledger(account, {
      delta: -cost,
      kind: "consumption",
      source: "consumption",
      operation: "translate",
      lots: [{ lot_id: lotId, amount: cost }],
    });
    await run(sql`insert into credit_consumptions (id, user_id, operation, cost, ledger_id)
      values (${id}, ${account.id}, 'translate', ${cost}, ${ledgerId})`);
    return id;
  };
  await lot(paid, "registration_grant", 30, 30);
  await ledger(paid, { delta: 30, kind: "registration_grant", source: "user" });
  const bought = await lot(paid, "purchase", 100, 50);
  await ledger(paid, { delta: 100, kind: "purchase", source: "order" });
  await consume(paid, bought, 40);
  // A charge whose work had not answered when the old version stopped: its hold.
  await consume(paid, bought, 10, hold.consumptionId);
  await run(sql`insert into credit_holds (consumption_id, user_id, instance_id, heartbeat_at)
    values (${hold.consumptionId}, ${paid.id}, 'old-instance', now())`);
  const granted = await lot(trial, "registration_grant", 30, 25);
  await ledger(trial, { delta: 30, kind: "registration_grant", source: "user" });
  await consume(trial, granted, 5);
  for (const account of [paid, trial]) {
    await run(
      sql`insert into user_credits (user_id, balance) values (${account.id}, ${account.balance})`,
    );
  }

  for (const table of [...WORK_TABLES, ...CREDIT_TABLES, "quotation_items"]) {
    const [row] = await run(sql`select count(*)::int as n from ${sql.identifier(table)}`);
    countsBefore[table] = Number(row!.n);
  }
}

await populateOldSchema();
await migrateAll();
const ctx = await createTestContext({ runtime: { database } });
const { app } = ctx;
const t = api(app);

async function login(account: OldAccount) {
  const res = await call(app, "/api/v1/auth/login", {
    json: { email: account.email, password: PASSWORD },
    ip: randomIp(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token as string;
}

/** Whether `table` has column `column` (the migrations after 0024 add org_id to more tables). */
async function hasColumn(table: string, column: string) {
  const rows = await run(sql`select 1 from information_schema.columns
    where table_schema = 'public' and table_name = ${table} and column_name = ${column}`);
  return rows.length > 0;
}

describe("migrating a database of 0023 to today's schema", () => {
  it("applied every migration after 0023", () => {
    expect(laterMigrations).toBeGreaterThan(0);
  });

  it("makes each account the owner of a personal organisation", async () => {
    for (const account of [paid, trial]) {
      const rows = await run(sql`select m.role, m.org_id, o.name from org_members m
        join orgs o on o.id = m.org_id where m.user_id = ${account.id}`);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.role).toBe("owner");
      const members = await run(sql`select count(*)::int as n from org_members
        where org_id = ${rows[0]!.org_id as string}`);
      expect(Number(members[0]!.n)).toBe(1);
    }
    const [named] = await run(sql`select o.name from orgs o join org_members m on m.org_id = o.id
      where m.user_id = ${paid.id}`);
    expect(named!.name).toBe("Paid Trading Co");
  });

  it("loses no row, and every row names its account's organisation", async () => {
    for (const [table, before] of Object.entries(countsBefore)) {
      const [row] = await run(sql`select count(*)::int as n from ${sql.identifier(table)}`);
      expect(Number(row!.n), table).toBe(before);
    }
    for (const table of [...WORK_TABLES, ...CREDIT_TABLES]) {
      if (!(await hasColumn(table, "org_id"))) {
        // The work tables gain org_id in 0024; the credit tables with the wallet's migration.
        expect(WORK_TABLES as readonly string[], `${table} has no org_id`).not.toContain(table);
        continue;
      }
      const stray = await run(sql`select count(*)::int as n from ${sql.identifier(table)} t
        where t.org_id is distinct from
          (select m.org_id from org_members m where m.user_id = t.user_id)`);
      expect(Number(stray[0]!.n), `${table}: rows outside their account's organisation`).toBe(0);
    }
    // Customers stay held by the account that had them (not the pool).
    const held = await run(sql`select id, user_id from customers order by id`);
    expect(held.every((c) => c.user_id !== null)).toBe(true);
  });

  it("keeps the wallets: the balance, the ledger's sum and the hold", async () => {
    for (const account of [paid, trial]) {
      const token = await login(account);
      const balance = await t.get("/api/v1/credits/balance", { token });
      expectStatus(balance, 200);
      expect(balance.body.balance, account.email).toBe(account.balance);
    }
    expect(paid.balance).toBe(80);
    expect(trial.balance).toBe(25);
    // Each wallet's ledger still sums to its balance, whichever table keys the wallet now.
    const walletKey = (await hasColumn("credit_ledger", "org_id")) ? "org_id" : "user_id";
    const sums = await run(sql`select sum(delta)::int as total from credit_ledger
      group by ${sql.identifier(walletKey)} order by 1`);
    expect(sums.map((s) => Number(s.total))).toEqual([trial.balance, paid.balance]);
    const holds = await run(sql`select consumption_id from credit_holds`);
    expect(holds.map((h) => h.consumption_id)).toEqual([hold.consumptionId]);
  });

  it("carries the paid plan with its end and the trial", async () => {
    const paidMe = await t.get("/api/v1/auth/me", { token: await login(paid) });
    expectStatus(paidMe, 200);
    expect(paidMe.body).toMatchObject({ plan: "business", is_trial_active: false });
    expect(
      new Date((paidMe.body as { plan_expires_at: string }).plan_expires_at).toISOString(),
    ).toBe(paidUntil);

    const trialMe = await t.get("/api/v1/auth/me", { token: await login(trial) });
    expectStatus(trialMe, 200);
    expect(trialMe.body).toMatchObject({ plan: "pro", is_trial_active: true });
    expect(new Date((trialMe.body as { trial_ends_at: string }).trial_ends_at).toISOString()).toBe(
      trialUntil,
    );
  });

  it("shows each account its own customers, products and quotations", async () => {
    for (const [account, companies] of [
      [paid, ["Alpha Imports", "Beta Trading"]],
      [trial, ["Gamma GmbH"]],
    ] as const) {
      const token = await login(account);
      const customers = await t.get("/api/v1/customers", { token });
      expectStatus(customers, 200);
      expect(customers.body.items.map((c) => c.company).sort()).toEqual([...companies]);
      const products = await t.get("/api/v1/products", { token });
      expectStatus(products, 200);
      expect(products.body.items.map((p) => p.sku)).toEqual(["SKU-LED-1"]);
      const quotations = await t.get("/api/v1/quotations", { token });
      expectStatus(quotations, 200);
      expect(quotations.body.items.map((q) => q.quote_no)).toEqual(["Q-2026-0001"]);
      const quotation = await t.get("/api/v1/quotations/{id}", {
        token,
        params: { id: quotations.body.items[0]!.id },
      });
      expectStatus(quotation, 200);
      expect(quotation.body.items?.map((item) => [item.name, item.quantity])).toEqual([
        ["LED panel", 2],
      ]);
      const records = await call(app, "/api/v1/discovery/records", { token });
      expect(records.status).toBe(200);
      expect(records.body.total).toBe(1);
      // Read in today's shape (issue #24): bare source URLs cited for the name, role unknown.
      expect(records.body.items[0].companies).toEqual([
        {
          ...FOUND,
          role: "unknown",
          role_reason: "",
          sources: [{ field: "name", url: "https://delta.example/" }],
          existing_customer_id: null,
        },
      ]);
    }
  });
});
