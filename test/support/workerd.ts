import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { inject } from "vitest";
import { unstable_startWorker } from "wrangler";
import { withDatabase } from "./global-setup";

/** Starting the deployable Workers (wrangler.toml environments) in workerd for e2e tests. */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const WRANGLER_TOML = join(ROOT, "wrangler.toml");

export type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

// No network here: do not ask Cloudflare for a Request.cf object, and send no metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

export const TEST_BINDINGS = {
  // 32 random bytes each: production refuses guessable secrets (src/lib/secret-strength.ts).
  JWT_SECRET: "9wS3dyvExOitZSM5xmc5pIfMUQCmoS2nEXoL9WeNXAI",
  CSRF_SECRET: "xDpC5yIguC1tpOkoL27lGwZ5BUD_aq4lbZO7vi3cfR0",
  APP_ENCRYPTION_KEY: "9rc-xnKoAn1MgeCXdHh1uMQsQofFRmYihlepxQNGKF8",
  LOG_LEVEL: "warn",
  // wrangler.toml's vars say APP_ENV=production, which refuses to start without these.
  PUBLIC_BASE_URL: "https://app.example.test",
  FRONTEND_URL: "https://app.example.test",
  CORS_ORIGINS: "https://app.example.test",
  ALLOW_MEMORY_RATE_LIMIT: "true",
  ALLOW_NO_MAIL: "true",
  // The fake providers listen on 127.0.0.1 (plain http): listed, as an operator lists vLLM.
  OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
};

/** One environment of wrangler.toml (auth, api, ...) bundled by wrangler and run in workerd. */
export async function startWorker(
  env: string,
  bindings: Record<string, string>,
  noEnvFile: string,
): Promise<Worker> {
  return unstable_startWorker({
    config: WRANGLER_TOML,
    env,
    // A missing file: keeps a developer's .dev.vars (which wrangler reads by default) out.
    envFiles: [noEnvFile],
    sendMetrics: false,
    // `wrangler dev` derives this from the compatibility flags (nodejs_compat with a date after
    // 2024-09-23 is "v2"); the API leaves it unset and would bundle node:async_hooks as unknown.
    build: {
      nodejsCompatMode: (config) =>
        config.compatibility_flags.includes("nodejs_compat") ? "v2" : null,
    },
    bindings: Object.fromEntries(
      Object.entries(bindings).map(([name, value]) => [name, { type: "plain_text", value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      watch: false,
      persist: false,
      logLevel: "warn",
      // GET /__scheduled?cron=... runs the scheduled handler (Worker.scheduled() cannot find a
      // Worker started from a config with environments in this wrangler version).
      testScheduled: true,
    },
  });
}

/** A request to a Worker; the body parsed as JSON when it is JSON. */
export async function callWorker(worker: Worker, path: string, init: RequestInit = {}) {
  const res = await worker.fetch(new URL(path, await worker.url).href, init as never);
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

export const postJson = (json: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(json),
});

/**
 * A database of one e2e suite's own, copied from the migrated template the global setup made;
 * `drop` removes it (with its connections).
 */
export async function suiteDatabase(
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL!;
  const name = `ta_e2e_${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name} template ${inject("postgresTemplate")}`);
  return {
    url: withDatabase(adminUrl, name),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
