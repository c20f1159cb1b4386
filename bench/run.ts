import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import pg from "pg";
import { configSchema } from "../src/config";
import { type ArgonTiming, timeArgonVerify } from "./argon";
import {
  BILLING_POOL_SIZE,
  BILLING_WORKERS,
  type BillingResult,
  killPgbenchSync,
  measureBilling,
  PGBENCH_CLIENTS,
  PGBENCH_SCALE,
  PGBENCH_THREADS,
} from "./billing";
import {
  buildImportXlsx,
  IMPORT_ROWS,
  IMPORT_RUNS,
  type ImportResult,
  LIST_CUSTOMERS,
  LIST_PATH,
  LIST_SIZE,
  mb,
  measureImport,
  measureStatementCeilings,
  type SeedResult,
  seedCustomers,
} from "./customers";
import {
  CONNECTIONS,
  DURATION_S,
  type LoadSummary,
  type LoadTarget,
  measureInterleaved,
  median,
  RUNS,
  WARMUP_S,
} from "./load";
import { measurePdf, type PdfResult, pdfReport } from "./pdf";
import { type CountingProxy, type PgCounts, startCountingProxy } from "./pg-count-proxy";
import {
  type Child,
  freePort,
  killAllChildrenSync,
  ROOT,
  startNode,
  stopAllChildren,
  waitReady,
} from "./proc";
import { fmt, ms, table } from "./report";
import { measureSessionCheck, type SessionCheckResult } from "./session-check";

// ---------------------------------------------------------------------------------------------
// Settings

const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/test";
const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
/** Hard stop for the whole run; cleanup still happens. */
const WATCHDOG_MS = 420_000;
const USERS = 200;
const PASSWORD = "bench-password-123";
const POOL_SIZE = 10;
/** PASSWORD_HASH_CONCURRENCY given to the app (its default). */
const HASH_CONCURRENCY = 2;
const ROUND_TRIP_REQUESTS = 1000;
const ROUND_TRIP_LOGINS = 20;
const ROUND_TRIP_LISTS = 200;
const STARTUP_RUNS = 3;
const AIMS = { health: 0.85, me: 0.8, listOfMe: 0.5, importS: 2, importMb: 300 } as const;
const SECRETS = {
  JWT_SECRET: "bench-jwt-secret-0123456789abcdef-0123456789",
  CSRF_SECRET: "bench-csrf-secret-0123456789abcdef-0123456789",
  APP_ENCRYPTION_KEY: "bench-encryption-key-0123456789abcdef-012345",
};
const APP_SCRIPT = "src/runtime/node.ts";

const log = (line = "") => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// Cleanup: children, proxy, database, temp dirs, rate-limit keys, whatever happens.

const state: {
  adminUrl: string;
  dbName?: string;
  dbCreated: boolean;
  pgbenchDbName?: string;
  tempDirs: string[];
  proxy?: CountingProxy;
  redisUrl?: string;
  redisKeys: Set<string>;
} = {
  adminUrl: process.env.DATABASE_URL || DEFAULT_ADMIN_URL,
  dbCreated: false,
  tempDirs: [],
  redisKeys: new Set(),
};

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const withAdmin = <T>(run: (client: pg.Client) => Promise<T>) => withClient(state.adminUrl, run);

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAllChildren();
    killAllChildrenSync();
    killPgbenchSync();
    await state.proxy?.close().catch(() => {});
    for (const name of [state.dbCreated ? state.dbName : undefined, state.pgbenchDbName]) {
      if (!name) continue;
      await withAdmin((c) => c.query(`drop database if exists "${name}" with (force)`))
        .then(() => log(`dropped database ${name}`))
        .catch((error) => log(`could not drop database ${name}: ${String(error)}`));
    }
    await Promise.allSettled(
      state.tempDirs.map((dir) => rm(dir, { recursive: true, force: true })),
    );
    if (state.redisUrl && state.redisKeys.size > 0) {
      const redis = new Redis(state.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      redis.on("error", () => {});
      try {
        await redis.connect();
        const keys = [...state.redisKeys];
        for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    }
  })();
  return cleaning;
}

process.on("exit", () => {
  killAllChildrenSync();
  killPgbenchSync();
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The parent's environment without any setting the app reads, so only what we pass applies. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(configSchema.shape)) delete env[key];
  delete env.NODE_OPTIONS;
  return env;
}

async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  state.tempDirs.push(dir);
  return dir;
}

async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  state.tempDirs = state.tempDirs.filter((d) => d !== dir);
}

async function redisAvailable(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  try {
    await redis.connect();
    const pong = await redis.ping();
    await redis.quit();
    return pong === "PONG";
  } catch {
    redis.disconnect();
    return false;
  }
}

/** X-Forwarded-For values from 198.18.0.0/15 (RFC 2544 benchmarking range), never reused. */
const IP_SPACE = 1 << 17;
let ipSeq = Math.floor(Math.random() * IP_SPACE);
let ipsIssued = 0;
function nextIp(): string {
  if (++ipsIssued > IP_SPACE) throw new Error("ran out of benchmark addresses");
  const n = ipSeq++ % IP_SPACE;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

interface BenchUser {
  email: string;
  token: string;
}

async function registerUsers(baseUrl: string, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const email = `bench-${process.pid}-${index}@example.com`;
      for (let attempt = 0; ; attempt++) {
        const ip = nextIp();
        state.redisKeys.add(`rl:register:${ip}`);
        const res = await fetch(`${baseUrl}/api/v1/auth/register`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": ip },
          body: JSON.stringify({ email, password: PASSWORD, name: `Bench ${index}` }),
        });
        const body = (await res.json()) as { access_token?: string; detail?: unknown };
        if (res.status === 201 && body.access_token) {
          users[index] = { email, token: body.access_token };
          break;
        }
        // 429: address already used (an earlier run); 503: hasher queue full. Both retry.
        if ((res.status !== 429 && res.status !== 503) || attempt >= 10) {
          throw new Error(`register ${email}: ${res.status} ${JSON.stringify(body)}`);
        }
        if (res.status === 503) await sleep(100 * (attempt + 1));
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return users;
}

async function getJson(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get("content-type"), text };
}

async function sequential(count: number, run: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i++) await run(i);
}

const delta = (a: PgCounts, b: PgCounts): PgCounts => ({
  Q: b.Q - a.Q,
  P: b.P - a.P,
  B: b.B - a.B,
  E: b.E - a.E,
  S: b.S - a.S,
  Z: b.Z - a.Z,
  connections: b.connections - a.connections,
});

interface PerRequest {
  requests: number;
  roundTrips: number;
  statements: number;
  readyForQuery: number;
  raw: PgCounts;
}

const perRequest = (counts: PgCounts, requests: number): PerRequest => ({
  requests,
  roundTrips: (counts.Q + counts.S) / requests,
  statements: (counts.Q + counts.E) / requests,
  readyForQuery: counts.Z / requests,
  raw: counts,
});

// ---------------------------------------------------------------------------------------------

async function main() {
  const startedAt = new Date();
  const t0 = performance.now();
  const load0 = loadavg();
  const watchdog = setTimeout(() => {
    log(`\nwatchdog: still running after ${WATCHDOG_MS / 1000} s, giving up`);
    void cleanup().finally(() => process.exit(1));
  }, WATCHDOG_MS);
  watchdog.unref();

  // --- database and Redis --------------------------------------------------------------------
  const dbName = `bench_${process.pid}`;
  state.dbName = dbName;
  const pgVersion = await withAdmin(async (c) => {
    await c.query(`drop database if exists "${dbName}" with (force)`);
    await c.query(`create database "${dbName}"`);
    state.dbCreated = true;
    const { rows } = await c.query<{ v: string }>("select current_setting('server_version') as v");
    return rows[0]?.v ?? "?";
  });
  const dbUrl = new URL(state.adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const benchDbUrl = dbUrl.toString();
  log(`database ${dbName} created on ${dbUrl.host} (PostgreSQL ${pgVersion})`);

  const redisCandidate = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  const redisUrl = (await redisAvailable(redisCandidate)) ? redisCandidate : undefined;
  state.redisUrl = redisUrl;
  log(`rate limiter store: ${redisUrl ? `Redis (${redisCandidate})` : "memory (no Redis)"}`);

  // --- servers -------------------------------------------------------------------------------
  const env0 = baseEnv();
  const appPort = await freePort();
  const appEnv: NodeJS.ProcessEnv = {
    ...env0,
    ...SECRETS,
    APP_ENV: "production",
    PORT: String(appPort),
    DATABASE_URL: benchDbUrl,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    ...(redisUrl ? { REDIS_URL: redisUrl } : { ALLOW_MEMORY_RATE_LIMIT: "true" }),
    // Production refuses to start without these; the bench sends no mail.
    PUBLIC_BASE_URL: `http://127.0.0.1:${appPort}`,
    CORS_ORIGINS: `http://127.0.0.1:${appPort}`,
    ALLOW_NO_MAIL: "true",
    LOG_LEVEL: "warn",
    DATA_DIR: await makeTempDir("bench-app-"),
    TRUST_PROXY: "1",
    PASSWORD_HASH_CONCURRENCY: String(HASH_CONCURRENCY),
  };
  let since = performance.now();
  const app = startNode("app", APP_SCRIPT, appEnv, appPort);
  const appReadyMs = await waitReady(app, since);
  const appUrl = `http://127.0.0.1:${appPort}`;
  log(`app ready on :${appPort} in ${fmt(appReadyMs)} ms (migrations included)`);

  const health = await getJson(`${appUrl}/health`);
  const contentType = health.contentType ?? "application/json";
  if (health.text !== '{"status":"ok"}') log(`note: app /health body is ${health.text}`);

  const ceilingEnv = { ...env0, CEILING_CONTENT_TYPE: contentType };
  const healthCeilingPort = await freePort();
  since = performance.now();
  const healthCeiling = startNode(
    "ceiling /health",
    "bench/ceilings/health.ts",
    { ...ceilingEnv, PORT: String(healthCeilingPort) },
    healthCeilingPort,
  );
  const meCeilingPort = await freePort();
  const meCeiling = startNode(
    "ceiling /me",
    "bench/ceilings/me.ts",
    {
      ...ceilingEnv,
      PORT: String(meCeilingPort),
      DATABASE_URL: benchDbUrl,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      JWT_SECRET: SECRETS.JWT_SECRET,
    },
    meCeilingPort,
  );
  await waitReady(healthCeiling, since);
  await waitReady(meCeiling, since, { path: "/api/v1/auth/me", status: 401 });
  const healthCeilingUrl = `http://127.0.0.1:${healthCeilingPort}`;
  const meCeilingUrl = `http://127.0.0.1:${meCeilingPort}`;

  // --- users ---------------------------------------------------------------------------------
  since = performance.now();
  const users = await registerUsers(appUrl, USERS);
  log(`registered ${users.length} users in ${fmt(performance.now() - since)} ms`);
  const token = users[0]!.token;
  const auth = { authorization: `Bearer ${token}` };
  const appMe = await getJson(`${appUrl}/api/v1/auth/me`, auth);
  const ceilingMe = await getJson(`${meCeilingUrl}/api/v1/auth/me`, auth);
  if (appMe.status !== 200 || ceilingMe.status !== 200) {
    throw new Error(`/me check: app ${appMe.status} ${appMe.text}, ceiling ${ceilingMe.status}`);
  }
  const appKeys = Object.keys(JSON.parse(appMe.text)).sort().join(",");
  const ceilingKeys = Object.keys(JSON.parse(ceilingMe.text)).sort().join(",");
  const sameShape = appKeys === ceilingKeys;
  if (!sameShape) log(`note: /me shapes differ:\n  app     ${appKeys}\n  ceiling ${ceilingKeys}`);

  // --- customers: 10,000 for the first bench user, seeded with SQL ----------------------------
  const seed: SeedResult = await withClient(benchDbUrl, async (c) => {
    const { rows } = await c.query<{ id: string }>("select id from users where email = $1", [
      users[0]!.email,
    ]);
    return seedCustomers(c, rows[0]!.id);
  });
  log(
    `seeded ${seed.customers} customers in ${fmt(seed.seedMs)} ms; the search matches ${seed.searchMatches}, search + status ${seed.listMatches}`,
  );
  const listCheck = await getJson(`${appUrl}${LIST_PATH}`, auth);
  const listBody = JSON.parse(listCheck.text) as { items?: { id: string }[]; total?: number };
  if (
    listCheck.status !== 200 ||
    listBody.items?.length !== Math.min(LIST_SIZE, seed.listMatches) ||
    listBody.total !== seed.listMatches
  ) {
    throw new Error(`list check: ${listCheck.status} ${listCheck.text.slice(0, 300)}`);
  }
  const listBytes = Buffer.byteLength(listCheck.text);

  // --- throughput ----------------------------------------------------------------------------
  log(
    `\nload: autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, ${RUNS} x ${DURATION_S} s (interleaved with the ceiling), median`,
  );
  const [healthApp, healthCeil] = (await measureInterleaved(
    [
      { name: "app GET /health", url: `${appUrl}/health` },
      { name: "ceiling GET /health", url: `${healthCeilingUrl}/health` },
    ],
    log,
  )) as [LoadSummary, LoadSummary];
  const [meApp, meCeil, listApp] = (await measureInterleaved(
    [
      { name: "app GET /me", url: `${appUrl}/api/v1/auth/me`, headers: auth },
      { name: "ceiling GET /me", url: `${meCeilingUrl}/api/v1/auth/me`, headers: auth },
      { name: "app GET /customers (list)", url: `${appUrl}${LIST_PATH}`, headers: auth },
    ],
    log,
  )) as [LoadSummary, LoadSummary, LoadSummary];
  await healthCeiling.stop();
  await meCeiling.stop();

  // What refusing ended sessions costs on a write route: polled set vs a read per request.
  log(`\nsession check: an instance with SESSION_CHECK=poll vs one with SESSION_CHECK=query`);
  const customerId = listBody.items![0]!.id;
  const sessionCheck: SessionCheckResult = await measureSessionCheck({
    script: APP_SCRIPT,
    appEnv,
    auth,
    customerId,
    log,
  });

  // The list's statement and /me's read by pgbench alone: what PostgreSQL allows each.
  log(`\nstatement ceilings: pgbench -M prepared -c ${POOL_SIZE} -j 2, ${RUNS} x ${DURATION_S} s`);
  const statements = await measureStatementCeilings({
    url: benchDbUrl,
    userId: seed.userId,
    dir: await makeTempDir("bench-sql-"),
    clients: POOL_SIZE,
    threads: 2,
    durationS: DURATION_S,
    runs: RUNS,
  });
  log(
    `  list statement ${fmt(statements.listTps)} tps, /me read ${fmt(statements.meTps)} tps (${statements.runs.map((r) => `${fmt(r.list)}/${fmt(r.me)}`).join(", ")})`,
  );

  // Login: every request gets its own X-Forwarded-For, users rotate, so no (address, email)
  // pair of the 5/min login limit is ever used more than once.
  const pairUses = new Map<string, number>();
  let loginSeq = 0;
  const loginTarget: LoadTarget = {
    name: "app POST /login",
    url: `${appUrl}/api/v1/auth/login`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
    setupRequest: (request) => {
      const user = users[loginSeq++ % users.length]!;
      const ip = nextIp();
      const pair = `${ip}|${user.email}`;
      pairUses.set(pair, (pairUses.get(pair) ?? 0) + 1);
      for (const key of [`rl:login:${pair}`, `rl:login_ip:${ip}`, `rl:login_ip_hour:${ip}`]) {
        state.redisKeys.add(key);
      }
      return {
        ...request,
        headers: { ...request.headers, "x-forwarded-for": ip },
        body: JSON.stringify({ email: user.email, password: PASSWORD }),
      };
    },
  };
  // Requests cut off at the end of a run keep their place in the app's hash queue (the server
  // does not abort work for a closed connection): pause until it has drained before the next.
  const [loginApp] = (await measureInterleaved([loginTarget], log, { pauseMs: 2000 })) as [
    LoadSummary,
  ];
  const maxPairUses = Math.max(...pairUses.values());

  // argon2id verify, timed on a hash the app stored.
  const storedHash = await withClient(benchDbUrl, async (c) => {
    const { rows } = await c.query<{ password_hash: string }>(
      "select password_hash from users where email = $1",
      [users[0]!.email],
    );
    return rows[0]!.password_hash;
  });
  const argon: ArgonTiming = await timeArgonVerify(storedHash, PASSWORD);
  const loginCeilingRps = (HASH_CONCURRENCY * 1000) / argon.verifyMs;
  log(
    `argon2id verify (@node-rs/argon2, ${storedHash.split("$")[3]}): median ${fmt(argon.verifyMs, 1)} ms over ${argon.samples.length}`,
  );

  // Import: a fresh 5,000-row .xlsx per run, each for its own bench user (every row
  // inserts); server memory from /proc/<pid>/status, VmHWM reset just before each run.
  since = performance.now();
  const importFiles = await Promise.all(
    Array.from({ length: IMPORT_RUNS }, async (_, i) => ({
      token: users[1 + i]!.token,
      tag: `${process.pid}-${i + 1}`,
      bytes: await buildImportXlsx(`${process.pid}-${i + 1}`),
    })),
  );
  log(
    `\nimport: ${IMPORT_RUNS} x ${IMPORT_ROWS}-row .xlsx (${fmt(importFiles[0]!.bytes.byteLength / 1024)} KB each) built with exceljs in ${fmt(performance.now() - since)} ms`,
  );
  const appPid = app.proc.pid;
  if (appPid === undefined) throw new Error("app has no pid");
  const imports: ImportResult = await measureImport({
    url: `${appUrl}/api/v1/customers/import`,
    pid: appPid,
    files: importFiles,
    log,
  });
  await app.stop();

  // --- database round trips ------------------------------------------------------------------
  const proxy = await startCountingProxy(dbUrl.hostname, Number(dbUrl.port || 5432));
  state.proxy = proxy;
  const proxiedUrl = new URL(benchDbUrl);
  proxiedUrl.hostname = "127.0.0.1";
  proxiedUrl.port = String(proxy.port);
  const countedPort = await freePort();
  since = performance.now();
  const counted = startNode(
    "app (via counting proxy)",
    APP_SCRIPT,
    { ...appEnv, PORT: String(countedPort), DATABASE_URL: proxiedUrl.toString() },
    countedPort,
  );
  await waitReady(counted, since);
  const countedUrl = `http://127.0.0.1:${countedPort}`;
  const expectOk = async (res: Response, what: string) => {
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${text}`);
  };
  const meOnce = async () =>
    expectOk(await fetch(`${countedUrl}/api/v1/auth/me`, { headers: auth }), "/me");
  await sequential(20, meOnce);
  let before = proxy.counts();
  await sequential(ROUND_TRIP_REQUESTS, meOnce);
  const meTrips = perRequest(delta(before, proxy.counts()), ROUND_TRIP_REQUESTS);
  before = proxy.counts();
  await sequential(ROUND_TRIP_REQUESTS, async () =>
    expectOk(await fetch(`${countedUrl}/health`), "/health"),
  );
  const healthTrips = perRequest(delta(before, proxy.counts()), ROUND_TRIP_REQUESTS);
  const listOnce = async () =>
    expectOk(await fetch(`${countedUrl}${LIST_PATH}`, { headers: auth }), "list");
  await sequential(20, listOnce);
  before = proxy.counts();
  await sequential(ROUND_TRIP_LISTS, listOnce);
  const listTrips = perRequest(delta(before, proxy.counts()), ROUND_TRIP_LISTS);
  const patchOnce = async () =>
    expectOk(
      await fetch(`${countedUrl}/api/v1/customers/${customerId}`, {
        method: "PATCH",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ notes: "Asked for the spring catalogue" }),
      }),
      "patch",
    );
  await sequential(20, patchOnce);
  before = proxy.counts();
  await sequential(ROUND_TRIP_LISTS, patchOnce);
  const patchTrips = perRequest(delta(before, proxy.counts()), ROUND_TRIP_LISTS);
  before = proxy.counts();
  await sequential(ROUND_TRIP_LOGINS, async (i) => {
    const user = users[i % users.length]!;
    const ip = nextIp();
    for (const key of [
      `rl:login:${ip}|${user.email}`,
      `rl:login_ip:${ip}`,
      `rl:login_ip_hour:${ip}`,
    ]) {
      state.redisKeys.add(key);
    }
    const res = await fetch(`${countedUrl}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    await expectOk(res, "/login");
  });
  const loginTrips = perRequest(delta(before, proxy.counts()), ROUND_TRIP_LOGINS);
  await counted.stop();
  await proxy.close();
  state.proxy = undefined;
  log(
    `round trips per request: /me ${fmt(meTrips.roundTrips, 2)}, /health ${fmt(healthTrips.roundTrips, 2)}, /login ${fmt(loginTrips.roundTrips, 2)}, list ${fmt(listTrips.roundTrips, 2)}, PATCH customer ${fmt(patchTrips.roundTrips, 2)}`,
  );

  // --- billing: chargeCredits vs pgbench -N ------------------------------------------------
  const pgbenchDbName = `${dbName}_pgbench`;
  const pgbenchUrl = new URL(state.adminUrl);
  pgbenchUrl.pathname = `/${pgbenchDbName}`;
  log(
    `\nbilling: chargeCredits in a child process, ${BILLING_WORKERS} workers, pool ${BILLING_POOL_SIZE}; ceiling pgbench -N -c ${PGBENCH_CLIENTS} -j ${PGBENCH_THREADS}, scale ${PGBENCH_SCALE}`,
  );
  const billing: BillingResult = await measureBilling({
    benchDbUrl,
    pgbenchDbUrl: pgbenchUrl.toString(),
    createPgbenchDb: async () => {
      state.pgbenchDbName = pgbenchDbName;
      await withAdmin(async (c) => {
        await c.query(`drop database if exists "${pgbenchDbName}" with (force)`);
        await c.query(`create database "${pgbenchDbName}"`);
      });
    },
    dropPgbenchDb: async () => {
      await withAdmin((c) => c.query(`drop database if exists "${pgbenchDbName}" with (force)`));
      state.pgbenchDbName = undefined;
    },
    env: { ...env0, LOG_LEVEL: "silent" },
    log,
  });
  log(
    `billing check: ${billing.check.ok ? "OK" : "MISMATCH"} (${billing.check.balanceMatches}/${billing.check.users} balances = sum(ledger.delta))`,
  );

  // --- quotation PDF: in this process, no server running --------------------------------------
  log(`\nquotation PDF: renderQuotationPdf vs the same page in Helvetica`);
  const pdf: PdfResult = await measurePdf(log);

  // --- embedded start-up ---------------------------------------------------------------------
  const startup = { fresh: [] as number[], existing: [] as number[], cleanExit: true };
  const embeddedEnv = { ...env0, LOG_LEVEL: "warn" };
  for (let i = 0; i < STARTUP_RUNS; i++) {
    const dataDir = await makeTempDir("bench-embedded-");
    for (const kind of ["fresh", "existing"] as const) {
      const port = await freePort();
      since = performance.now();
      const child: Child = startNode(
        `embedded (${kind})`,
        APP_SCRIPT,
        { ...embeddedEnv, PORT: String(port), DATA_DIR: dataDir },
        port,
      );
      startup[kind].push(await waitReady(child, since));
      await child.stop();
      if (child.proc.exitCode !== 0) startup.cleanExit = false;
    }
    await removeTempDir(dataDir);
    log(
      `embedded start-up ${i + 1}/${STARTUP_RUNS}: fresh ${fmt(startup.fresh[i]!)} ms, existing ${fmt(startup.existing[i]!)} ms`,
    );
  }

  // --- report --------------------------------------------------------------------------------
  const healthRatio = healthApp.rps / healthCeil.rps;
  const meRatio = meApp.rps / meCeil.rps;
  const loginRatio = loginApp.okRps / loginCeilingRps;
  const listOfHealth = listApp.rps / healthApp.rps;
  const listOfMe = listApp.rps / meApp.rps;
  const importMet = imports.medianSeconds < AIMS.importS;
  const importMemMet = imports.maxPeakGrowthKb / 1024 < AIMS.importMb;
  const verdict = (ratio: number, aim: number) =>
    `>= ${aim.toFixed(2)} ${ratio >= aim ? "MET" : "MISSED"}`;
  const load1 = loadavg();
  const totalS = (performance.now() - t0) / 1000;
  const errorsNote = (s: LoadSummary) =>
    s.non2xx + s.errors > 0 ? ` [non-2xx ${s.non2xx}, errors ${s.errors}]` : "";

  const lines: string[] = [];
  const out = (line = "") => lines.push(line);
  out("=".repeat(100));
  out(`Benchmark ${startedAt.toISOString()}  (${totalS.toFixed(0)} s)`);
  out(
    `Machine: ${cpus().length} x ${cpus()[0]?.model ?? "?"}, Node ${process.version}, PostgreSQL ${pgVersion}; load average ${load0.map((l) => l.toFixed(2)).join(" ")} at start, ${load1.map((l) => l.toFixed(2)).join(" ")} at end`,
  );
  out(
    `Servers: each its own process (node --import tsx ...). App: APP_ENV=production, LOG_LEVEL=warn (access logs OFF),`,
  );
  out(
    `  PostgreSQL ${dbName} (pool ${POOL_SIZE}), rate limiter ${redisUrl ? "Redis" : "memory"}, TRUST_PROXY=1, PASSWORD_HASH_CONCURRENCY=${HASH_CONCURRENCY}.`,
  );
  out(
    `Load: autocannon in the bench process, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, median of ${RUNS} x ${DURATION_S} s, app and ceiling runs interleaved.`,
  );
  out();
  out(
    table(
      ["route", "rps", "p99 ms", "ceiling rps", "ceiling p99", "ratio", "aim"],
      [
        [
          "GET /health",
          fmt(healthApp.rps),
          ms(healthApp.p99Ms),
          fmt(healthCeil.rps),
          ms(healthCeil.p99Ms),
          fmt(healthRatio, 2),
          verdict(healthRatio, AIMS.health),
        ],
        [
          "GET /api/v1/auth/me",
          fmt(meApp.rps),
          ms(meApp.p99Ms),
          fmt(meCeil.rps),
          ms(meCeil.p99Ms),
          fmt(meRatio, 2),
          verdict(meRatio, AIMS.me),
        ],
        [
          "GET /api/v1/customers (list)",
          fmt(listApp.rps),
          ms(listApp.p99Ms),
          "-",
          "-",
          `${fmt(listOfMe, 2)} of /me`,
          `>= ${AIMS.listOfMe.toFixed(2)} of /me ${listOfMe >= AIMS.listOfMe ? "MET" : "MISSED"}`,
        ],
        [
          "POST /api/v1/auth/login",
          fmt(loginApp.okRps),
          ms(loginApp.p99Ms),
          fmt(loginCeilingRps),
          "-",
          fmt(loginRatio, 2),
          "(none)",
        ],
      ],
    ),
  );
  out();
  out("Per-run rps (app / ceiling):");
  out(
    `  /health  ${healthApp.runs.map((r) => fmt(r.rps)).join(", ")}  /  ${healthCeil.runs.map((r) => fmt(r.rps)).join(", ")}${errorsNote(healthApp)}${errorsNote(healthCeil)}`,
  );
  out(
    `  /me      ${meApp.runs.map((r) => fmt(r.rps)).join(", ")}  /  ${meCeil.runs.map((r) => fmt(r.rps)).join(", ")}${errorsNote(meApp)}${errorsNote(meCeil)}`,
  );
  out(
    `  /login   ${loginApp.runs.map((r) => fmt(r.okRps)).join(", ")}  (successful logins/s; the ratio uses these)${errorsNote(loginApp)}`,
  );
  out(
    `  list     ${listApp.runs.map((r) => fmt(r.rps)).join(", ")}  (runs interleaved with the /me app and ceiling runs)${errorsNote(listApp)}`,
  );
  out();
  out(`Customer list: GET ${LIST_PATH} as a user with ${seed.customers} customers`);
  out(
    `  (seeded with one INSERT ... SELECT generate_series, then VACUUM ANALYZE; created_at over a year, 7 statuses; the search matches ${seed.searchMatches}, search + status ${seed.listMatches} = total; ${fmt(listBytes / 1024, 1)} KB body)`,
  );
  out(
    table(
      ["", "rps", "p99 ms", "ratio to app /health", "ratio to app /me", "aim"],
      [
        [
          `list ${LIST_SIZE} of ${LIST_CUSTOMERS}`,
          fmt(listApp.rps),
          ms(listApp.p99Ms),
          fmt(listOfHealth, 3),
          fmt(listOfMe, 2),
          `>= ${AIMS.listOfMe.toFixed(2)} of /me ${listOfMe >= AIMS.listOfMe ? "MET" : "MISSED"}`,
        ],
      ],
    ),
  );
  out(
    `  DB round trips per list request: ${fmt(listTrips.roundTrips, 2)} (counting proxy, ${ROUND_TRIP_LISTS} sequential requests)`,
  );
  const dbListOfMe = statements.listTps / statements.meTps;
  out(
    `  PostgreSQL alone (pgbench -M prepared -c ${statements.clients}, the app's statements, median of ${RUNS} x ${DURATION_S} s): list statement ${fmt(statements.listTps)} tps, /me read ${fmt(statements.meTps)} tps, list = ${fmt(dbListOfMe, 2)} of /me at the database;`,
  );
  out(
    `  app list ${fmt(listApp.rps)} rps = ${fmt(listApp.rps / statements.listTps, 2)} of its statement's ceiling (app /me = ${fmt(meApp.rps / statements.meTps, 2)} of its read's)`,
  );
  out();
  const worst = imports.runs.reduce((a, b) => (b.peakGrowthKb > a.peakGrowthKb ? b : a));
  out(
    `Customer import: POST /api/v1/customers/import, multipart "file", ${IMPORT_ROWS}-row .xlsx (company, contact, email, phone, country, status, notes; ${fmt(importFiles[0]!.bytes.byteLength / 1024)} KB)`,
  );
  out(
    `  built with exceljs in the bench process; ${IMPORT_RUNS} runs, each a fresh user and fresh e-mails (all rows inserted), on the app after the load runs.`,
  );
  out(
    `  Server memory: /proc/<pid>/status of the app process, VmHWM ${imports.hwmReset ? "reset (clear_refs 5) just before each run" : "NOT resettable here: growth from VmRSS polled every 10 ms"}; growth = peak - VmRSS before.`,
  );
  out(
    table(
      ["", "seconds", "RSS before MB", "peak RSS MB (VmHWM)", "peak growth MB", "aim"],
      [
        [
          `import ${IMPORT_ROWS} rows (median s, worst memory)`,
          fmt(imports.medianSeconds, 2),
          mb(worst.rssBeforeKb),
          mb(imports.maxHwmKb),
          mb(imports.maxPeakGrowthKb),
          `< ${AIMS.importS} s ${importMet ? "MET" : "MISSED"}, < ${AIMS.importMb} MB ${importMemMet ? "MET" : "MISSED"}`,
        ],
      ],
    ),
  );
  out(
    `  per run: ${imports.runs.map((r) => `${fmt(r.seconds, 2)} s, ${mb(r.rssBeforeKb)} -> ${mb(r.hwmAfterKb)} MB (sampled ${mb(r.sampledPeakKb)})`).join("; ")}`,
  );
  out(
    `  absolute peak RSS ${mb(imports.maxHwmKb)} MB ${imports.maxHwmKb / 1024 < AIMS.importMb ? "<" : ">="} ${AIMS.importMb} MB (includes the server's baseline after the load runs).`,
  );
  out();
  out("Ceilings:");
  out(`  /health  bare node:http, same body ${health.text} and content-type "${contentType}".`);
  out(
    `  /me      bare node:http: HS256 check with node:crypto (HMAC + timingSafeEqual, alg/exp/iss/aud) + the app's /me statement (primary-key read with the plan's features and limits, bench/me-statement.ts) through a pg Pool(${POOL_SIZE}) as a named prepared statement (as the app), JSON (same keys as the app: ${sameShape ? "yes" : "NO"}).`,
  );
  out(
    `  /login   theoretical: ${HASH_CONCURRENCY} concurrent hashes / ${fmt(argon.verifyMs, 1)} ms per argon2id verify (@node-rs/argon2, ${storedHash.split("$")[3]}, measured sequentially in this run) = ${fmt(loginCeilingRps)} req/s.`,
  );
  out(
    `           Login pairs: ${USERS} users, a fresh X-Forwarded-For per request; ${pairUses.size} (address, email) pairs, each used at most ${maxPairUses}x (limit 5/min).`,
  );
  out();
  out(
    "DB round trips per request (counting TCP proxy between a second app instance and PostgreSQL;",
  );
  out(
    "pg_stat_statements is not preloaded here. Round trip = Sync or simple Query; cross-checked with ReadyForQuery):",
  );
  out(
    table(
      ["route", "requests", "round trips/req", "statements/req", "ReadyForQuery/req"],
      [
        ["GET /api/v1/auth/me", meTrips, ROUND_TRIP_REQUESTS] as const,
        ["GET /health", healthTrips, ROUND_TRIP_REQUESTS] as const,
        ["POST /api/v1/auth/login", loginTrips, ROUND_TRIP_LOGINS] as const,
        ["GET /api/v1/customers (list)", listTrips, ROUND_TRIP_LISTS] as const,
        ["PATCH /api/v1/customers/:id", patchTrips, ROUND_TRIP_LISTS] as const,
      ].map(([route, t, n]) => [
        route,
        String(n),
        fmt(t.roundTrips, 2),
        fmt(t.statements, 2),
        fmt(t.readyForQuery, 2),
      ]),
    ),
  );
  out(`  DB round trips per /me request: ${fmt(meTrips.roundTrips, 2)}`);
  out();
  out(
    "Session check (ended sessions refused on every authenticated route): an instance polling session_revocations",
  );
  out(
    "  at most every 500 ms (SESSION_CHECK=poll, the default) against an instance of the same app that reads it",
  );
  out("  on every request (SESSION_CHECK=query); same database, interleaved runs:");
  out(
    table(
      ["route", "poll rps", "poll p99", "query rps", "query p99", "query / poll"],
      [
        [
          "PATCH /api/v1/customers/:id",
          sessionCheck.patchPoll,
          sessionCheck.patchQuery,
          sessionCheck.patchRatio,
        ] as const,
        [
          "GET /api/v1/auth/me",
          sessionCheck.mePoll,
          sessionCheck.meQuery,
          sessionCheck.meRatio,
        ] as const,
      ].map(([route, poll, query, ratio]) => [
        route,
        fmt(poll.rps),
        ms(poll.p99Ms),
        fmt(query.rps),
        ms(query.p99Ms),
        fmt(ratio, 2),
      ]),
    ),
  );
  out(
    `  Cost of the polled check on the write route: ${fmt(patchTrips.roundTrips, 2)} round trips per PATCH (the poll is one query per instance per 500 ms, not per request); the per-request read costs ${fmt((1 - sessionCheck.patchRatio) * 100)}% of its throughput.`,
  );
  out();
  const check = billing.check;
  out(
    `Billing (chargeCredits, operation "translate", cost ${billing.cost}): child process, ${BILLING_WORKERS} async workers, pg pool ${BILLING_POOL_SIZE}, ${billing.users} users with ${billing.grantAmount} credits each,`,
  );
  out(
    `  a random user per charge; ceiling pgbench -N -c ${PGBENCH_CLIENTS} -j ${PGBENCH_THREADS} -T ${DURATION_S} (scale ${PGBENCH_SCALE}, own database, same server); ${WARMUP_S} s warm-up each, median of ${RUNS} x ${DURATION_S} s, interleaved:`,
  );
  out(
    table(
      ["", "charges/s", "p50 ms", "p99 ms", "ceiling pgbench -N tps", "ratio"],
      [
        [
          "credit charge",
          fmt(billing.chargesPerS),
          ms(billing.p50Ms),
          ms(billing.p99Ms),
          fmt(billing.pgbenchTps),
          fmt(billing.ratio, 2),
        ],
      ],
    ),
  );
  out(
    `  per run: charges/s ${billing.runs.map((r) => fmt(r.chargesPerS)).join(", ")}  /  pgbench tps ${billing.pgbenchRuns.map((r) => fmt(r.tps)).join(", ")}${billing.failures ? `  [failed charges ${billing.failures}]` : ""}`,
  );
  out(
    `  ledger check: ${check.ok ? "OK" : "MISMATCH"} - ${check.balanceMatches}/${check.users} users balance = sum(ledger.delta), ${check.balanceMismatches} mismatched, ${check.lotMismatches} balance != sum(lots.remaining); ${check.consumptions} consumption rows for ${check.chargesCounted} charges counted.`,
  );
  out();
  for (const line of pdfReport(pdf)) out(line);
  out();
  out(
    `Embedded start-up (PGlite, no DATABASE_URL/REDIS_URL/secrets; process spawn -> first 200 on /health, polled every 25 ms), median of ${STARTUP_RUNS}:`,
  );
  out(
    `  fresh DATA_DIR     ${fmt(median(startup.fresh))} ms   (${startup.fresh.map((v) => fmt(v)).join(", ")})`,
  );
  out(
    `  existing DATA_DIR  ${fmt(median(startup.existing))} ms   (${startup.existing.map((v) => fmt(v)).join(", ")})`,
  );
  if (!startup.cleanExit) out("  note: an embedded server did not exit 0 on SIGTERM");
  out(`  (PostgreSQL-backed app, fresh database incl. migrations: ${fmt(appReadyMs)} ms)`);
  out("=".repeat(100));

  const report = lines.join("\n");
  process.stdout.write(`\n${report}\n`);

  const result = {
    startedAt: startedAt.toISOString(),
    durationS: totalS,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      node: process.version,
      postgres: pgVersion,
      loadavgStart: load0,
      loadavgEnd: load1,
    },
    settings: {
      connections: CONNECTIONS,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      runs: RUNS,
      poolSize: POOL_SIZE,
      hashConcurrency: HASH_CONCURRENCY,
      rateLimiter: redisUrl ? "redis" : "memory",
      logLevel: "warn",
      accessLogs: false,
      users: USERS,
    },
    routes: {
      health: {
        app: healthApp,
        ceiling: healthCeil,
        ratio: healthRatio,
        aim: AIMS.health,
        met: healthRatio >= AIMS.health,
      },
      me: { app: meApp, ceiling: meCeil, ratio: meRatio, aim: AIMS.me, met: meRatio >= AIMS.me },
      customerList: {
        path: LIST_PATH,
        app: listApp,
        seed,
        bodyBytes: listBytes,
        ratioToHealth: listOfHealth,
        ratioToMe: listOfMe,
        aimOfMe: AIMS.listOfMe,
        met: listOfMe >= AIMS.listOfMe,
        statementCeilings: statements,
      },
      login: {
        app: loginApp,
        ceilingRps: loginCeilingRps,
        ratio: loginRatio,
        argon2VerifyMs: argon.verifyMs,
        argon2Samples: argon.samples,
        hashConcurrency: HASH_CONCURRENCY,
        pairs: pairUses.size,
        maxPairUses,
      },
    },
    dbRoundTrips: {
      me: meTrips,
      health: healthTrips,
      login: loginTrips,
      list: listTrips,
      patchCustomer: patchTrips,
    },
    sessionCheck,
    customerImport: {
      ...imports,
      rows: IMPORT_ROWS,
      fileBytes: importFiles[0]!.bytes.byteLength,
      aimSeconds: AIMS.importS,
      aimMb: AIMS.importMb,
      metSeconds: importMet,
      metMemory: importMemMet,
    },
    billing: {
      ...billing,
      workers: BILLING_WORKERS,
      poolSize: BILLING_POOL_SIZE,
      pgbench: { scale: PGBENCH_SCALE, clients: PGBENCH_CLIENTS, threads: PGBENCH_THREADS },
    },
    quotationPdf: pdf,
    startup: {
      freshMs: startup.fresh,
      existingMs: startup.existing,
      freshMedianMs: median(startup.fresh),
      existingMedianMs: median(startup.existing),
      postgresAppReadyMs: appReadyMs,
    },
    report,
  };
  const outDir = join(ROOT, "bench", ".out");
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote bench/.out/latest.json`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  log(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cleanup();
}
process.exit(exitCode);
