import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { LIST_PATH, LIST_SIZE, type SeedResult, seedCustomers } from "./customers";
import { fmt } from "./format";
import { baseEnv, type Child, freePort, startNode, waitReady } from "./proc";
import {
  type Log,
  log,
  makeTempDir,
  nextIp,
  state,
  trackRedisKeys,
  withAdmin,
  withClient,
} from "./resources";
import { type BenchSettings, SETTINGS } from "./settings";

interface Server {
  child: Child;
  url: string;
}

interface BenchUser {
  email: string;
  token: string;
}

/** What every scenario runs against: started by `startAll`, stopped by the orchestrator. */
export interface BenchContext {
  settings: BenchSettings;
  log: Log;
  db: {
    adminUrl: string;
    /** Name of the bench's own database. */
    name: string;
    /** Connection string of the bench's own database. */
    url: string;
    pgVersion: string;
  };
  /** Redis for the app's rate limiter, or undefined: the app then uses its memory store. */
  redisUrl: string | undefined;
  /** The parent's environment without any setting the app reads. */
  baseEnv: NodeJS.ProcessEnv;
  /** The PostgreSQL-backed app (production settings); `env` starts more instances like it. */
  app: Server & { env: NodeJS.ProcessEnv; readyMs: number };
  ceilings: { health: Server; me: Server; list: Server };
  /** The app's /health answer, served as-is by the /health ceiling. */
  health: { text: string; contentType: string };
  users: BenchUser[];
  /** Authorization header of users[0], who owns the seeded customers. */
  auth: Record<string, string>;
  /** Whether the app's /me and the ceiling's answer with the same keys. */
  sameShape: boolean;
  seed: SeedResult;
  list: { bytes: number; customerId: string; ceilingSameBody: boolean };
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

async function registerUsers(baseUrl: string, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const email = `bench-${process.pid}-${index}@example.com`;
      for (let attempt = 0; ; attempt++) {
        const ip = nextIp();
        trackRedisKeys(`rl:register:${ip}`);
        const res = await fetch(`${baseUrl}/api/v1/auth/register`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": ip },
          body: JSON.stringify({ email, password: SETTINGS.password, name: `Bench ${index}` }),
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

/**
 * Creates the bench database, picks the rate limiter store, starts the app and the /health and
 * /me ceilings, registers the users and seeds the customer list; checks the answers match.
 */
export async function startAll(): Promise<BenchContext> {
  const { poolSize, secrets } = SETTINGS;

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

  const redisCandidate = process.env.REDIS_URL || SETTINGS.defaultRedisUrl;
  const redisUrl = (await redisAvailable(redisCandidate)) ? redisCandidate : undefined;
  state.redisUrl = redisUrl;
  log(`rate limiter store: ${redisUrl ? `Redis (${redisCandidate})` : "memory (no Redis)"}`);

  // --- servers -------------------------------------------------------------------------------
  const env0 = baseEnv();
  const appPort = await freePort();
  const appEnv: NodeJS.ProcessEnv = {
    ...env0,
    ...secrets,
    APP_ENV: "production",
    PORT: String(appPort),
    DATABASE_URL: benchDbUrl,
    DATABASE_POOL_SIZE: String(poolSize),
    ...(redisUrl ? { REDIS_URL: redisUrl } : { ALLOW_MEMORY_RATE_LIMIT: "true" }),
    // Production refuses to start without these; the bench sends no mail.
    PUBLIC_BASE_URL: `http://127.0.0.1:${appPort}`,
    CORS_ORIGINS: `http://127.0.0.1:${appPort}`,
    FRONTEND_URL: "https://app.example.test",
    ALLOW_NO_MAIL: "true",
    LOG_LEVEL: "warn",
    DATA_DIR: await makeTempDir("bench-app-"),
    TRUST_PROXY: "1",
    PASSWORD_HASH_CONCURRENCY: String(SETTINGS.hashConcurrency),
  };
  let since = performance.now();
  const app = startNode("app", SETTINGS.appScript, appEnv, appPort);
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
      DATABASE_POOL_SIZE: String(poolSize),
      JWT_SECRET: secrets.JWT_SECRET,
    },
    meCeilingPort,
  );
  const listCeilingPort = await freePort();
  const listCeiling = startNode(
    "ceiling list",
    "bench/ceilings/list.ts",
    {
      ...ceilingEnv,
      PORT: String(listCeilingPort),
      DATABASE_URL: benchDbUrl,
      DATABASE_POOL_SIZE: String(poolSize),
      JWT_SECRET: secrets.JWT_SECRET,
      LIST_PATH,
    },
    listCeilingPort,
  );
  await waitReady(healthCeiling, since);
  await waitReady(listCeiling, since, { path: LIST_PATH, status: 401 });
  await waitReady(meCeiling, since, { path: "/api/v1/auth/me", status: 401 });
  const healthCeilingUrl = `http://127.0.0.1:${healthCeilingPort}`;
  const meCeilingUrl = `http://127.0.0.1:${meCeilingPort}`;
  const listCeilingUrl = `http://127.0.0.1:${listCeilingPort}`;

  // --- users ---------------------------------------------------------------------------------
  since = performance.now();
  const users = await registerUsers(appUrl, SETTINGS.users);
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
  // The ceiling must answer what the app answers: same page, same JSON.
  const ceilingList = await getJson(`${listCeilingUrl}${LIST_PATH}`, auth);
  const listSame = ceilingList.status === 200 && ceilingList.text === listCheck.text;
  if (!listSame) {
    log(
      `note: the list ceiling's body differs from the app's:\n  app     ${listCheck.text.slice(0, 160)}\n  ceiling ${ceilingList.status} ${ceilingList.text.slice(0, 160)}`,
    );
  }

  return {
    settings: SETTINGS,
    log,
    db: { adminUrl: state.adminUrl, name: dbName, url: benchDbUrl, pgVersion },
    redisUrl,
    baseEnv: env0,
    app: { child: app, url: appUrl, env: appEnv, readyMs: appReadyMs },
    ceilings: {
      health: { child: healthCeiling, url: healthCeilingUrl },
      me: { child: meCeiling, url: meCeilingUrl },
      list: { child: listCeiling, url: listCeilingUrl },
    },
    health: { text: health.text, contentType },
    users,
    auth,
    sameShape,
    seed,
    list: {
      bytes: Buffer.byteLength(listCheck.text),
      customerId: listBody.items![0]!.id,
      ceilingSameBody: listSame,
    },
  };
}
