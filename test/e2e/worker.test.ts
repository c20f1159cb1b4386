import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import WebSocket from "ws";
import { wranglerEnvs } from "../../scripts/worker-sizes";
import { ROUTE_GROUPS } from "../../src/app";
import { configSchema } from "../../src/config";
import { apiRouters } from "../../src/groups/api";
import { documentsRouters } from "../../src/groups/documents";
import { WORKSPACE_ORDER } from "../../src/groups/index";
import { CRON_EXPRESSIONS, CRON_SCHEDULES } from "../../src/jobs/schedules";
import { ARGON2_PARAMS } from "../../src/lib/password";
import { HASH_WASM_SHA256 } from "../../src/lib/password-wasm-module";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { type NeonRelay, startNeonRelay } from "../support/neon-relay";
import {
  callWorker,
  postJson,
  ROOT,
  startWorker,
  suiteDatabase,
  TEST_BINDINGS,
  type Worker,
  WRANGLER_TOML,
} from "../support/workerd";

/**
 * The Workers deployables: the auth function bundled by wrangler and run in workerd (Miniflare),
 * against the real PostgreSQL through the Neon serverless driver and a local WebSocket relay.
 */

const DATABASE_URL = process.env.DATABASE_URL;
const ENVS = Object.keys(ROUTE_GROUPS);

const startAuthWorker = (bindings: Record<string, string>, noEnvFile: string) =>
  startWorker("auth", bindings, noEnvFile);
const call = callWorker;

describe.skipIf(!DATABASE_URL)("auth Worker in workerd over the Neon driver", () => {
  let scratch: string;
  let relay: NeonRelay;
  let worker: Worker;
  let databaseUrl: string;
  let database: Awaited<ReturnType<typeof suiteDatabase>> | undefined;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "ta-worker-e2e-"));
    database = await suiteDatabase("worker");
    databaseUrl = database.url;
    relay = await startNeonRelay();
    worker = await startAuthWorker(
      { ...TEST_BINDINGS, DATABASE_URL: databaseUrl, NEON_WS_PROXY: relay.proxy },
      join(scratch, "none.env"),
    );
    await worker.ready;
  });

  afterAll(async () => {
    await worker?.dispose();
    await relay?.close();
    await database?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("registers, logs in and reads the profile", async () => {
    const email = `worker-${Date.now().toString(36)}@example.com`;
    const password = "correct horse battery";

    const registered = await call(worker, "/api/v1/auth/register", postJson({ email, password }));
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body.user.email).toBe(email);

    // A second request on a new connection: pooled sockets never cross requests in workerd.
    const login = await call(worker, "/api/v1/auth/login", postJson({ email, password }));
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.access_token).toEqual(expect.any(String));

    const wrong = await call(worker, "/api/v1/auth/login", postJson({ email, password: "nope" }));
    expect(wrong.status).toBe(401);

    const me = await call(worker, "/api/v1/auth/me", {
      headers: { authorization: `Bearer ${login.body.access_token}` },
    });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ id: registered.body.user.id, email, role: "user" });

    // Every query went through the relay (one Postgres session per request that used the db).
    expect(relay.connections()).toBeGreaterThanOrEqual(3);

    // The hash made in workerd (hash-wasm on precompiled modules) is standard argon2id that
    // the native Node hasher verifies.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ password_hash: string }>(
      "select password_hash from users where email = $1",
      [email],
    );
    await client.end();
    const stored = rows[0]!.password_hash;
    const { memorySize: m, iterations: t, parallelism: p } = ARGON2_PARAMS;
    expect(stored.startsWith(`$argon2id$v=19$m=${m},t=${t},p=${p}$`)).toBe(true);
    const node = createNodePasswordHasher();
    expect(await node.verify(stored, password)).toBe(true);
    expect(await node.verify(stored, "nope")).toBe(false);
  });

  it("answers readiness through each request's own pool, concurrent requests included", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call(worker, "/health/ready")),
    );
    for (const res of results) expect(res).toEqual({ status: 200, body: { status: "ok" } });
    const missing = await call(worker, "/api/v1/no-such-route");
    expect(missing).toEqual({ status: 404, body: { detail: "Not found", code: "not_found" } });
  });

  it("runs the reminders task from the cron Worker, one digest however often it fires", async () => {
    const email = `cron-${Date.now().toString(36)}@example.com`;
    const registered = await call(
      worker,
      "/api/v1/auth/register",
      postJson({ email, password: "correct horse battery" }),
    );
    expect(registered.status).toBe(201);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      // A customer last contacted 40 days ago: past the default 14 silent days.
      const { rows } = await client.query<{ id: string }>(
        `insert into customers (user_id, company, last_contact_at, created_at)
         values ($1, 'Quiet Buyer GmbH', now() - interval '40 days', now() - interval '60 days')
         returning id`,
        [registered.body.user.id],
      );
      const cronWorker = await startWorker(
        "cron",
        { ...TEST_BINDINGS, DATABASE_URL: databaseUrl, NEON_WS_PROXY: relay.proxy },
        join(scratch, "none.env"),
      );
      try {
        await cronWorker.ready;
        const cron = encodeURIComponent(CRON_SCHEDULES.customerReminders);
        for (let run = 0; run < 2; run++) {
          const res = await call(cronWorker, `/__scheduled?cron=${cron}`);
          expect(res).toEqual({ status: 200, body: "Ran scheduled event" });
        }
      } finally {
        await cronWorker.dispose();
      }
      // Two runs, one digest (ADR 0091), naming the silent customer.
      const notices = await client.query<{
        kind: string;
        data: { silent: number; most_urgent: { customer_id: string }[] };
      }>("select kind, data from notifications where user_id = $1", [registered.body.user.id]);
      expect(notices.rows).toHaveLength(1);
      expect(notices.rows[0]!.kind).toBe("reminder_digest");
      expect(notices.rows[0]!.data.silent).toBe(1);
      expect(notices.rows[0]!.data.most_urgent[0]!.customer_id).toBe(rows[0]!.id);
    } finally {
      await client.end();
    }
  });

  it("answers 500 'Service misconfigured' when a secret is missing", async () => {
    const broken = await startAuthWorker(
      { LOG_LEVEL: "silent", DATABASE_URL: databaseUrl, JWT_SECRET: TEST_BINDINGS.JWT_SECRET },
      join(scratch, "none.env"),
    );
    try {
      await broken.ready;
      const res = await call(broken, "/api/v1/auth/me");
      expect(res).toEqual({
        status: 500,
        body: { detail: "Service misconfigured", code: "internal_error" },
      });
    } finally {
      await broken.dispose();
    }
  });
});

describe("Workers deployables", () => {
  const readEnv = (env: string) =>
    unstable_readConfig({ config: WRANGLER_TOML, env }, { hideWarnings: true });

  it("has one wrangler environment per route group, each with its own entry and vars", () => {
    const settings = new Set(Object.keys(configSchema.shape));
    const first = readEnv(ENVS[0]!);
    for (const env of ENVS) {
      const config = readEnv(env);
      expect(config.main).toBe(join(ROOT, "functions", `${env}.ts`));
      expect(config.name).toBe(`trade-assistant-${env}`);
      expect(config.compatibility_flags).toContain("nodejs_compat");
      expect(config.compatibility_date).toBe(first.compatibility_date);
      // vars are not inherited by environments: every block must repeat the same ones.
      expect(config.vars).toEqual(first.vars);
      for (const name of Object.keys(config.vars)) expect(settings).toContain(name);
      expect(config.vars.APP_ENV).toBe("production");
      // Secrets never go in vars.
      for (const secret of ["DATABASE_URL", "JWT_SECRET", "CSRF_SECRET", "APP_ENCRYPTION_KEY"]) {
        expect(config.vars).not.toHaveProperty(secret);
      }
    }
  });

  it("has no environment without a route group (the size check measures every one)", async () => {
    expect(await wranglerEnvs(WRANGLER_TOML)).toEqual(ENVS);
  });

  it("minifies every Worker and keeps the /docs script in static assets, never served alone", () => {
    for (const env of ENVS) {
      const config = readEnv(env);
      expect(config.minify, env).toBe(true);
      expect(config.assets, env).toEqual({
        directory: "node_modules/@scalar/api-reference/dist/browser",
        binding: "ASSETS",
        run_worker_first: true,
      });
    }
  });

  it("mounts every api and documents router once, in the workspace order", () => {
    expect([...WORKSPACE_ORDER].sort()).toEqual([...apiRouters, ...documentsRouters].sort());
    expect(new Set(WORKSPACE_ORDER).size).toBe(WORKSPACE_ORDER.length);
  });

  it("gives the cron Worker exactly the CRON_SCHEDULES triggers, and no other Worker any", () => {
    for (const env of ENVS) {
      const crons = readEnv(env).triggers.crons ?? [];
      if (env === "cron") expect([...crons].sort()).toEqual([...CRON_EXPRESSIONS].sort());
      else expect(crons).toEqual([]);
    }
  });

  it("lists every setting of src/config.ts in .dev.vars.example, and nothing else", async () => {
    const text = await readFile(join(ROOT, ".dev.vars.example"), "utf8");
    const listed = [...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect([...listed].sort()).toEqual(Object.keys(configSchema.shape).sort());
  });

  it("relays only to the allowed Postgres address", async () => {
    const relay = await startNeonRelay();
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://${relay.proxy}?address=127.0.0.1:22`);
        ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.on("open", () => reject(new Error("relay accepted a forbidden target")));
        ws.on("error", () => {});
      });
      expect(status).toBe(403);
      expect(relay.connections()).toBe(0);
    } finally {
      await relay.close();
    }
  });

  it("ships byte copies of hash-wasm's argon2 and blake2b binaries", async () => {
    const bundle = await readFile(join(ROOT, "node_modules/hash-wasm/dist/index.esm.js"), "utf8");
    for (const [name, sha256] of Object.entries(HASH_WASM_SHA256)) {
      const embedded = new RegExp(
        `var name\\$\\w+ = "${name}";\\nvar data\\$\\w+ = "([^"]+)"`,
      ).exec(bundle)?.[1];
      expect(embedded, `hash-wasm no longer embeds ${name} as expected`).toBeDefined();
      const copy = await readFile(join(ROOT, "src/lib/wasm", `${name}.wasm`));
      const digest = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
      expect(digest(Buffer.from(embedded!, "base64")), `regenerate src/lib/wasm/${name}.wasm`).toBe(
        sha256,
      );
      expect(digest(copy), `src/lib/wasm/${name}.wasm`).toBe(sha256);
    }
  });
});
