import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, inject } from "vitest";
import { type App, createApp, type RouteGroup } from "../../src/app";
import { type ConfigInput, parseConfig } from "../../src/config";
import type { Database } from "../../src/db/client";
import { buildDeps, type RuntimeAdapters } from "../../src/deps";
import { createLogger } from "../../src/lib/logger";
import type { Deps } from "../../src/ports";
import { createStripeProvider } from "../../src/providers/payment/stripe";
import { createMemoryRateLimiter } from "../../src/providers/ratelimit/memory";
import type { RateLimiter } from "../../src/providers/ratelimit/types";
import { openPgliteDatabase, openPostgresDatabase } from "../../src/runtime/node/database";
import { nodeResolver } from "../../src/runtime/node/dns";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { createRedisRateLimiter } from "../../src/runtime/node/redis-rate-limiter";
import { seedDefaults } from "../../src/runtime/seed-defaults";
import { registerUser } from "./client";
import { withDatabase } from "./global-setup";

type TestDb = "pglite" | "postgres";
const TEST_DB: TestDb = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
export const onPostgres = TEST_DB === "postgres";

export const TEST_SECRETS = {
  jwtSecret: "test-jwt-secret-0123456789abcdef0123456789",
  csrfSecret: "test-csrf-secret-0123456789abcdef012345678",
  encryptionKey: "test-encryption-key-0123456789abcdef01234",
};

const randomSuffix = () => Math.random().toString(36).slice(2, 10);

/** A fresh database for one test file: PGlite from the migrated image, or a Postgres clone. */
export async function openTestDatabase(): Promise<Database & { url?: string }> {
  if (TEST_DB === "postgres") {
    const base = process.env.DATABASE_URL!;
    const name = `ta_test_${process.pid}_${randomSuffix()}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject("postgresTemplate")}`);
    await admin.end();
    const url = withDatabase(base, name);
    const database = openPostgresDatabase(url, 20);
    return {
      ...database,
      url,
      close: async () => {
        await database.close();
        const cleanup = new pg.Client({ connectionString: base });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    };
  }
  // Its own in-memory cluster from the cached migrated image (pglite-image.ts), then the
  // default rows, which the image leaves out because they come from src, not migrations/.
  const { image, assets } = await pgliteFiles();
  const database = await openPgliteDatabase("memory://", { loadDataDir: image, assets });
  await seedDefaults(database.db);
  return database;
}

/**
 * What every PGlite cluster of a worker starts from, read once per worker (files share it, see
 * vitest.config.ts): the migrated image, PGlite's compiled WebAssembly module and its file
 * bundle. All read-only: each file still gets its own cluster. About 2 s less per file.
 */
let pgliteFilesOnce: ReturnType<typeof loadPgliteFiles> | undefined;
const pgliteFiles = () => {
  pgliteFilesOnce ??= loadPgliteFiles(inject("pgliteTemplate"));
  return pgliteFilesOnce;
};
async function loadPgliteFiles(imagePath: string) {
  const dist = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  const [image, wasm, bundle] = await Promise.all([
    readFile(imagePath),
    readFile(join(dist, "pglite.wasm")),
    readFile(join(dist, "pglite.data")),
  ]);
  return {
    image: new Blob([image]),
    assets: { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) },
  };
}

/** Redis when the run has one (so limits are tested on the real store), else memory. */
function testRateLimiter(): RateLimiter {
  const url = process.env.REDIS_URL;
  if (!url || TEST_DB !== "postgres") return createMemoryRateLimiter();
  return prefixedLimiter(createRedisRateLimiter(url), `t${process.pid}${randomSuffix()}:`);
}

/** Keeps each test file's budgets apart on a shared Redis. */
export function prefixedLimiter(inner: RateLimiter, prefix: string): RateLimiter {
  return {
    consume: (rule, key) => inner.consume({ ...rule, name: `${prefix}${rule.name}` }, key),
    close: () => inner.close?.() ?? Promise.resolve(),
  };
}

export interface TestContext {
  app: App;
  deps: Deps;
  database: Database;
  /** A second app on the same database and limiter store, as a second instance would be. */
  makeApp(overrides?: Partial<RuntimeAdapters>, env?: ConfigInput): Promise<App>;
  /** makeApp with the instance's deps (its INSTANCE_ID, its work in flight). */
  makeInstance(
    overrides?: Partial<RuntimeAdapters>,
    env?: ConfigInput,
  ): Promise<{ app: App; deps: Deps }>;
}

/** What `APP_ENV=production` needs to start (src/config.ts), on the test database and limiter. */
export const PRODUCTION_ENV = {
  APP_ENV: "production",
  PUBLIC_BASE_URL: "https://api.example.test",
  FRONTEND_URL: "https://app.example.test",
  CORS_ORIGINS: "https://app.example.test",
  JWT_SECRET: "Jw7-prod-test-9aQz4LmX2vTc8RfNb3KdYp6",
  CSRF_SECRET: "Cs5-prod-test-1HgW7qPz3xVn9LtBk4MeRj2",
  APP_ENCRYPTION_KEY: "Ek3-prod-test-6YdU8sFa2wQm5NzCh7JvTg9",
  ALLOW_EMBEDDED_DATABASE: "true",
  ALLOW_MEMORY_RATE_LIMIT: "true",
  ALLOW_NO_MAIL: "true",
} as const;

export function testConfig(env: ConfigInput = {}) {
  // Fake providers listen on 127.0.0.1, which the outbound policy refuses unless listed; a test
  // of that refusal passes OUTBOUND_ALLOW_HOSTS: "" to build an app without it.
  return parseConfig({
    APP_ENV: "test",
    TRUST_PROXY: "1",
    LOG_LEVEL: "silent",
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    ...env,
  });
}

/**
 * The real app on a real database for one test file; closed after the file. Options let a
 * file point providers at fakes (WeChat) or change settings.
 */
export async function createTestContext(
  options: { env?: ConfigInput; groups?: RouteGroup[]; runtime?: Partial<RuntimeAdapters> } = {},
): Promise<TestContext> {
  const database = await openTestDatabase();
  const limiter = options.runtime?.limiter ?? testRateLimiter();
  const passwords = createNodePasswordHasher();
  const build = async (overrides: Partial<RuntimeAdapters> = {}, env: ConfigInput = {}) => {
    const deps = await buildDeps(testConfig({ ...options.env, ...env }), {
      database,
      limiter,
      passwords,
      resolveHost: nodeResolver,
      secrets: TEST_SECRETS,
      logger: createLogger("silent"),
      stripe: createStripeProvider,
      ...options.runtime,
      ...overrides,
    });
    return { deps, app: createApp(deps, options.groups) };
  };
  const { deps, app } = await build();
  afterAll(async () => {
    await limiter.close?.();
    await database.close();
  });
  return {
    app,
    deps,
    database,
    makeApp: async (overrides, env) => (await build(overrides, env)).app,
    makeInstance: build,
  };
}

/** Registers an account and makes it an admin in the database, as `npm run admin:grant` does. */
export async function registerAdmin(
  ctx: Pick<TestContext, "app" | "database">,
  overrides: Parameters<typeof registerUser>[1] = {},
) {
  const session = await registerUser(ctx.app, overrides);
  await ctx.database.db.execute(sql`update users set role = 'admin' where id = ${session.userId}`);
  return session;
}
