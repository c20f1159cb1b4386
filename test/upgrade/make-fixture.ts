import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createApp } from "../../src/app";
import { parseConfig } from "../../src/config";
import { buildDeps } from "../../src/deps";
import { createLogger } from "../../src/lib/logger";
import { createStripeProvider } from "../../src/providers/payment/stripe";
import { createMemoryRateLimiter } from "../../src/providers/ratelimit/memory";
import { openPostgresDatabase } from "../../src/runtime/node/database";
import { nodeResolver } from "../../src/runtime/node/dns";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { seedDefaults } from "../../src/runtime/seed-defaults";
import { fixtureLoginPath, fixturePath, lastRelease, migrateToRelease } from "./release-database";

/**
 * Writes the release's data fixture (test/upgrade/fixtures/<version>.sql and .json): run
 * `DATABASE_URL=postgres://... npm run db:upgrade-fixture` at the release's commit, when the
 * schema is the release's (pg_dump on the PATH). The data is
 * made through the app's own routes, so it is what the release writes; pg_dump keeps the rows,
 * without its session settings (a `set search_path` would outlive the load on PGlite's one
 * connection). ADR 0120.
 */

const SECRETS = {
  jwtSecret: "test-jwt-secret-0123456789abcdef0123456789",
  csrfSecret: "test-csrf-secret-0123456789abcdef012345678",
  encryptionKey: "test-encryption-key-0123456789abcdef01234",
};
const PASSWORD = "upgrade fixture password 1";

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("make-fixture: DATABASE_URL (a PostgreSQL server) is required");
  const release = await lastRelease();
  const name = `ta_fixture_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = openPostgresDatabase(url.toString(), 4);
  try {
    await migrateToRelease(database.db, release);
    await seedDefaults(database.db);
    const deps = await buildDeps(
      parseConfig({ APP_ENV: "test", TRUST_PROXY: "1", LOG_LEVEL: "silent" }),
      {
        database,
        limiter: createMemoryRateLimiter(),
        passwords: createNodePasswordHasher(),
        resolveHost: nodeResolver,
        secrets: SECRETS,
        logger: createLogger("silent"),
        stripe: createStripeProvider,
      },
    );
    const app = createApp(deps);
    let ip = 10;
    const send = async (path: string, json?: unknown, token?: string, method?: string) => {
      const headers: Record<string, string> = { "X-Forwarded-For": `203.0.113.${ip++}` };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (json !== undefined) headers["Content-Type"] = "application/json";
      const res = await app.request(path, {
        method: method ?? (json === undefined ? "GET" : "POST"),
        headers,
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      const body = (await res.json().catch(() => undefined)) as Record<string, any>;
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const register = (email: string, userName: string) =>
      send("/api/v1/auth/register", { email, password: PASSWORD, name: userName });

    const owner = await register("owner@upgrade.example", "Owner Zhang");
    const member = await register("member@upgrade.example", "Member Li");
    const staff = await register("admin@upgrade.example", "Admin Chen");
    await database.db.execute(
      sql`update users set role = 'admin' where id = ${staff.user.id}::uuid`,
    );
    // The member joins the owner's company, as an accepted invitation (without its data) does.
    await database.db.execute(sql`update org_members set role = 'member',
        org_id = (select org_id from org_members where user_id = ${owner.user.id}::uuid)
      where user_id = ${member.user.id}::uuid`);

    const token = owner.access_token as string;
    const customer = await send(
      "/api/v1/customers",
      { company: "Acme Trading 升级", email: "anna@acme.example", country: "DE" },
      token,
    );
    await send("/api/v1/customers", { company: "Borealis Imports" }, member.access_token);
    const product = await send(
      "/api/v1/products",
      { name: "Vacuum flask", price: 1299, currency: "USD" },
      token,
    );
    await send(
      "/api/v1/quotations",
      {
        customer_id: customer.id,
        currency: "USD",
        items: [
          { product_id: product.id, quantity: 10 },
          { name: "Gift box", quantity: 10, unit_price: 150 },
        ],
      },
      token,
    );
    await send(
      `/api/v1/customers/${customer.id}/followups`,
      { channel: "email", note: "Sent the catalogue" },
      token,
    );
    // Ledger rows of both signs: a grant and a debit that consumes part of a lot.
    const adjust = `/api/v1/admin/credit-users/${owner.user.id}/adjust`;
    await send(adjust, { delta: 20, reason: "Goodwill" }, staff.access_token);
    await send(adjust, { delta: -7, reason: "Correction" }, staff.access_token);
    const balance = await send("/api/v1/credits/balance", undefined, token);

    const dump = execFileSync(
      "pg_dump",
      [
        `--dbname=${url}`,
        "--data-only",
        "--column-inserts",
        "--no-owner",
        "--no-privileges",
        "--schema=public",
      ],
      { encoding: "utf8", maxBuffer: 64 << 20 },
    );
    const rows = dump
      .split("\n")
      .filter((line) => !/^(SET |SELECT pg_catalog\.set_config|--|\\(un)?restrict )/.test(line))
      .join("\n")
      .replace(/\n{3,}/g, "\n\n");
    // Replica: the rows go in as they were, whatever order the tables come in, no trigger firing twice.
    writeFileSync(
      fixturePath(release),
      `-- ${release.version}'s data, written by test/upgrade/make-fixture.ts; loaded by release-database.ts.\nbegin;\nset local session_replication_role = replica;\n${rows.trim()}\ncommit;\n`,
    );
    writeFileSync(
      fixtureLoginPath(release),
      `${JSON.stringify(
        {
          password: PASSWORD,
          owner: { email: "owner@upgrade.example", id: owner.user.id },
          member: { email: "member@upgrade.example", id: member.user.id },
          customer_id: customer.id,
          product_id: product.id,
          balance,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
