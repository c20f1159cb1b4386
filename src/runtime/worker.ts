// biome-ignore lint/style/noRestrictedImports: workerd implements AsyncLocalStorage natively (nodejs_compat); the per-request pool below needs it.
import { AsyncLocalStorage } from "node:async_hooks";
import { type App, buildApp } from "../app-core";
import { type Config, ConfigError, parseConfig } from "../config";
import type { Database, Db } from "../db/client";
import { openNeonDatabase } from "../db/neon";
import { buildDeps, type RuntimeAdapters } from "../deps";
import { type DocsBundleSource, provideDocsBundle } from "../http/api-docs";
import { errorBody } from "../http/errors";
import type { AppRouter } from "../http/router";
import { createPrecompiledWasmPasswordHasher } from "../lib/password-wasm-module";
import { dohResolver } from "../lib/ssrf";
import argon2Wasm from "../lib/wasm/argon2.wasm";
import blake2bWasm from "../lib/wasm/blake2b.wasm";
import { fetchedCjkFont, provideCjkFont } from "../modules/quotations/pdf-font";
import type { Deps } from "../ports";
import { createMemoryRateLimiter } from "../providers/ratelimit/memory";
import { createUpstashRateLimiter } from "../providers/ratelimit/upstash";

/**
 * Cloudflare Workers entry: `functions/<group>.ts` is `export default createWorker(<group>Routes)`
 * with the group's routes from src/groups/<group>.ts, so each bundle holds only its own routes
 * (the cron Worker adds its scheduled tasks).
 * Bundled by wrangler only, never imported by Node code (the `.wasm` imports only resolve in a
 * wrangler bundle). Needs the `nodejs_compat` compatibility flag (for AsyncLocalStorage).
 */

/** Vars and secrets as bound by wrangler.toml and `wrangler secret put`. */
export type WorkerEnv = Record<string, unknown>;

/** The parts of the Workers ExecutionContext this module uses. */
export interface WorkerExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** The parts of the Workers ScheduledController this module uses. */
export interface WorkerScheduledController {
  readonly cron: string;
  readonly scheduledTime: number;
}

export interface WorkerModule {
  fetch(request: Request, env: WorkerEnv, ctx: WorkerExecutionContext): Promise<Response>;
  scheduled(
    controller: WorkerScheduledController,
    env: WorkerEnv,
    ctx: WorkerExecutionContext,
  ): Promise<void>;
}

/** Settings a Worker cannot start without: there is no disk to generate secrets into. */
const REQUIRED_ON_WORKERS = [
  "DATABASE_URL",
  "JWT_SECRET",
  "CSRF_SECRET",
  "APP_ENCRYPTION_KEY",
] as const satisfies readonly (keyof Config)[];

type WorkerConfig = Config & {
  DATABASE_URL: string;
  JWT_SECRET: string;
  CSRF_SECRET: string;
  APP_ENCRYPTION_KEY: string;
};

/** Parses the bindings; throws ConfigError naming every missing or invalid setting. */
export function parseWorkerConfig(env: WorkerEnv): WorkerConfig {
  const config = parseConfig(env as Record<string, string>);
  const missing = REQUIRED_ON_WORKERS.filter((key) => !config[key]);
  if (missing.length > 0) {
    throw new ConfigError(
      missing.map(
        (key) => `${key}: required on Workers (set it with \`wrangler secret put ${key}\`)`,
      ),
    );
  }
  return config as WorkerConfig;
}

/**
 * One Neon pool per request, behind a Database that stays the same for the isolate.
 *
 * workerd ties every socket to the request that opened it: a pooled connection reused by the
 * next request fails ("Cannot perform I/O on behalf of a different request") or hangs. So the
 * app and its deps are built once per isolate, but `deps.db` forwards each call to a pool that
 * belongs to the current request (found through AsyncLocalStorage), opened on first use and
 * ended when the request is over.
 */
class RequestScope {
  #database: Database | undefined;

  constructor(private readonly open: () => Database) {}

  get database(): Database {
    this.#database ??= this.open();
    return this.#database;
  }

  async close(): Promise<void> {
    const database = this.#database;
    this.#database = undefined;
    await database?.close().catch(() => {});
  }
}

const scopes = new AsyncLocalStorage<RequestScope>();

function currentDatabase(): Database {
  const scope = scopes.getStore();
  if (!scope) throw new Error("The database is only reachable while handling a request");
  return scope.database;
}

/** A Db whose every property is read from the current request's Drizzle instance. */
const requestDb = new Proxy({} as Db, {
  get(_target, property) {
    const db = currentDatabase().db;
    const value = Reflect.get(db, property, db);
    return typeof value === "function" ? value.bind(db) : value;
  },
  has: (_target, property) => Reflect.has(currentDatabase().db, property),
});

const requestScopedDatabase: Database = {
  kind: "neon",
  db: requestDb,
  ping: () => currentDatabase().ping(),
  // Each request's pool is ended by its scope; there is nothing isolate-wide to close.
  close: async () => {},
};

/**
 * Runs a handler inside a fresh request scope and ends the scope's pool once the response body
 * has been sent (a streamed body may still use the database after the handler returned).
 */
async function withRequestScope(
  open: () => Database,
  ctx: WorkerExecutionContext,
  handler: () => Promise<Response>,
): Promise<Response> {
  const scope = new RequestScope(open);
  let response: Response;
  try {
    response = await scopes.run(scope, handler);
  } catch (error) {
    ctx.waitUntil(scope.close());
    throw error;
  }
  if (!response.body) {
    ctx.waitUntil(scope.close());
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  ctx.waitUntil(
    response.body
      .pipeTo(writable)
      .catch(() => {})
      .then(() => scope.close()),
  );
  return new Response(readable, response);
}

interface WorkerInstance {
  app: App;
  deps: Deps;
  openDatabase: () => Database;
}

async function buildWorker(
  env: WorkerEnv,
  routes: () => AppRouter[],
  options: WorkerOptions,
): Promise<WorkerInstance> {
  const config = parseWorkerConfig(env);
  const openDatabase = () =>
    openNeonDatabase(config.DATABASE_URL, { wsProxy: config.NEON_WS_PROXY || undefined });
  const limiter =
    config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN
      ? createUpstashRateLimiter({
          url: config.UPSTASH_REDIS_REST_URL,
          token: config.UPSTASH_REDIS_REST_TOKEN,
        })
      : createMemoryRateLimiter();
  const deps = await buildDeps(config, {
    database: requestScopedDatabase,
    limiter,
    passwords: createPrecompiledWasmPasswordHasher({ argon2: argon2Wasm, blake2b: blake2bWasm }),
    resolveHost: dohResolver(config.DOH_ENDPOINT),
    secrets: {
      jwtSecret: config.JWT_SECRET,
      csrfSecret: config.CSRF_SECRET,
      encryptionKey: config.APP_ENCRYPTION_KEY,
    },
    platformIpHeader: "CF-Connecting-IP",
    heartbeat: "per-item",
    stripe: options.stripe,
  });
  if (config.PDF_FONT_URL) {
    provideCjkFont(fetchedCjkFont(config.PDF_FONT_URL, { fetch: deps.fetch }));
  }
  provideDocsBundle(assetsDocsBundle(env));
  // workerd gzips or brotlis a body itself once the response names the encoding.
  return { app: buildApp(deps, routes(), { runtimeEncodes: true }), deps, openDatabase };
}

/** The parts of a Workers static-assets binding (wrangler.toml `[env.*.assets]`) used here. */
interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

/** Where the /docs script sits in the assets directory (Scalar's dist/browser). */
const DOCS_SCRIPT_ASSET = "https://assets.invalid/standalone.js";

/**
 * Scalar's bundle is a static asset (the ASSETS binding), not part of the script: at 3.5 MB it
 * would be most of every Worker's upload and parsed on every cold start. It is read through the
 * binding on the first /docs request of an isolate only; without the binding, /docs links the
 * OpenAPI document instead.
 */
function assetsDocsBundle(env: WorkerEnv): DocsBundleSource | undefined {
  const assets = env.ASSETS as AssetsBinding | undefined;
  if (!assets) return undefined;
  return async () => {
    const res = await assets.fetch(new Request(DOCS_SCRIPT_ASSET));
    if (!res.ok) throw new Error(`docs bundle asset: HTTP ${res.status}`);
    return res.text();
  };
}

function startupFailure(error: unknown): Response {
  // The message names settings, never their values; no stack reaches the client.
  const misconfigured = error instanceof ConfigError;
  console.error(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "error",
      msg: "worker start-up failed",
      error: error instanceof Error ? error.name : "unknown",
      ...(misconfigured ? { problems: error.problems } : {}),
    }),
  );
  return Response.json(
    misconfigured ? errorBody(500, "Service misconfigured") : errorBody(503, "Service unavailable"),
    { status: misconfigured ? 500 : 503, headers: misconfigured ? {} : { "Retry-After": "5" } },
  );
}

export interface WorkerOptions {
  /** What a fired cron trigger runs (the cron Worker: src/jobs); without it, nothing. */
  onCron?: (deps: Deps, cron: string) => Promise<unknown>;
  /** The Stripe provider's factory, for a Worker that takes card payments or refunds. */
  stripe?: RuntimeAdapters["stripe"];
}

/** A Workers module serving the given routes; the app is built once per isolate. */
export function createWorker(routes: () => AppRouter[], options: WorkerOptions = {}): WorkerModule {
  let instance: Promise<WorkerInstance> | undefined;

  function instanceFor(env: WorkerEnv): Promise<WorkerInstance> {
    if (!instance) {
      const building = buildWorker(env, routes, options);
      instance = building;
      // A failed build is not cached: the next request tries again (a secret may have been set).
      building.catch(() => {
        if (instance === building) instance = undefined;
      });
    }
    return instance;
  }

  return {
    async fetch(request, env, ctx) {
      let ready: WorkerInstance;
      try {
        ready = await instanceFor(env);
      } catch (error) {
        return startupFailure(error);
      }
      return withRequestScope(ready.openDatabase, ctx, async () =>
        ready.app.fetch(request, env, ctx as never),
      );
    },

    async scheduled(controller, env, ctx) {
      let ready: WorkerInstance;
      try {
        ready = await instanceFor(env);
      } catch (error) {
        startupFailure(error); // logs what is wrong; there is no client to answer
        return;
      }
      ready.deps.logger.info("cron trigger fired", {
        cron: controller.cron,
        scheduled_time: new Date(controller.scheduledTime).toISOString(),
      });
      const onCron = options.onCron;
      if (!onCron) return;
      // The same per-request pool scope as fetch: workerd ties sockets to this invocation.
      const scope = new RequestScope(ready.openDatabase);
      const run = scopes
        .run(scope, () => onCron(ready.deps, controller.cron))
        .finally(() => scope.close());
      ctx.waitUntil(run);
      await run;
    },
  };
}
