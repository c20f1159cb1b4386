import { type App, createApp, type RouteGroup } from "../app";
import { type Config, ConfigError, parseConfig } from "../config";
import { openNeonDatabase } from "../db/neon";
import { buildDeps } from "../deps";
import { tasksForCron } from "../jobs/schedules";
import { createLogger } from "../lib/logger";
import { createPrecompiledWasmPasswordHasher } from "../lib/password-wasm-module";
import { dohResolver } from "../lib/ssrf";
import argon2Wasm from "../lib/wasm/argon2.wasm";
import blake2bWasm from "../lib/wasm/blake2b.wasm";
import { createMemoryRateLimiter } from "../providers/ratelimit/memory";
import { createUpstashRateLimiter } from "../providers/ratelimit/upstash";

/**
 * Cloudflare Workers entry: `functions/<group>.ts` is `export default createWorker(["<group>"])`.
 * Edge-safe: bundled by wrangler, never imported by Node code (the `.wasm` imports only resolve
 * in a wrangler bundle).
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
      missing.map((key) => `${key}: required on Workers (set it with \`wrangler secret put ${key}\`)`),
    );
  }
  return config as WorkerConfig;
}

async function buildWorkerApp(env: WorkerEnv, groups: readonly RouteGroup[]): Promise<App> {
  const config = parseWorkerConfig(env);
  const database = openNeonDatabase(config.DATABASE_URL, {
    wsProxy: config.NEON_WS_PROXY || undefined,
  });
  const limiter =
    config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN
      ? createUpstashRateLimiter({
          url: config.UPSTASH_REDIS_REST_URL,
          token: config.UPSTASH_REDIS_REST_TOKEN,
        })
      : createMemoryRateLimiter();
  const deps = await buildDeps(config, {
    database,
    limiter,
    passwords: createPrecompiledWasmPasswordHasher({ argon2: argon2Wasm, blake2b: blake2bWasm }),
    resolveHost: dohResolver(config.DOH_ENDPOINT),
    secrets: {
      jwtSecret: config.JWT_SECRET,
      csrfSecret: config.CSRF_SECRET,
      encryptionKey: config.APP_ENCRYPTION_KEY,
    },
    platformIpHeader: "CF-Connecting-IP",
  });
  return createApp(deps, groups);
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
    { detail: misconfigured ? "Service misconfigured" : "Service unavailable" },
    { status: misconfigured ? 500 : 503, headers: misconfigured ? {} : { "Retry-After": "5" } },
  );
}

/** A Workers module serving the given route groups; the app is built once per isolate. */
export function createWorker(groups: readonly RouteGroup[]): WorkerModule {
  let app: Promise<App> | undefined;

  function appFor(env: WorkerEnv): Promise<App> {
    if (!app) {
      const building = buildWorkerApp(env, groups);
      app = building;
      // A failed build is not cached: the next request tries again (a secret may have been set).
      building.catch(() => {
        if (app === building) app = undefined;
      });
    }
    return app;
  }

  return {
    async fetch(request, env, ctx) {
      let ready: App;
      try {
        ready = await appFor(env);
      } catch (error) {
        return startupFailure(error);
      }
      return ready.fetch(request, env, ctx as never);
    },

    async scheduled(controller, env) {
      // The jobs themselves come later; for now record that the trigger fired.
      let level: Config["LOG_LEVEL"] = "info";
      try {
        level = parseConfig(env as Record<string, string>).LOG_LEVEL;
      } catch {
        // A bad setting is reported by fetch; logging here still happens at "info".
      }
      createLogger(level).info("cron trigger fired", {
        cron: controller.cron,
        tasks: tasksForCron(controller.cron),
        scheduled_time: new Date(controller.scheduledTime).toISOString(),
      });
    },
  };
}
