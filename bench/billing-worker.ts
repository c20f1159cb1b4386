import pg from "pg";
import { parseConfig } from "../src/config";
import { buildDeps } from "../src/deps";
import { createLogger } from "../src/lib/logger";
import { chargeCredits, grantCredits } from "../src/modules/credits/service";
import { createMemoryRateLimiter } from "../src/providers/ratelimit/memory";
import { openPostgresDatabase } from "../src/runtime/node/database";
import { nodeResolver } from "../src/runtime/node/dns";
import { createNodePasswordHasher } from "../src/runtime/node/password";

/**
 * Billing load in its own process (nothing else on its event loop): the app's chargeCredits over
 * a node-postgres pool, driven by BILLING_WORKERS async workers, each charging a random user.
 * Started by bench/billing.ts with an IPC channel; messages:
 *   parent -> worker: { type: "run", durationS }  |  { type: "stop" }
 *   worker -> parent: { type: "ready", ... }  |  { type: "result", ... }  |  { type: "error", ... }
 */

export interface BillingReady {
  type: "ready";
  users: number;
  grantMs: number;
  grantAmount: number;
}

export interface BillingRunResult {
  type: "result";
  charges: number;
  failures: number;
  elapsedMs: number;
  chargesPerS: number;
  p50Ms: number;
  p99Ms: number;
  /** The cost one charge took (from credits.costs). */
  cost: number;
  firstError?: string;
}

export type BillingMessage = BillingReady | BillingRunResult | { type: "error"; message: string };
export type BillingCommand = { type: "run"; durationS: number } | { type: "stop" };

const url = process.env.BILLING_DATABASE_URL ?? "";
const poolSize = Number(process.env.BILLING_POOL_SIZE || 10);
const workers = Number(process.env.BILLING_WORKERS || 20);
const grantAmount = Number(process.env.BILLING_GRANT || 1_000_000);
const OPERATION = (process.env.BILLING_OPERATION || "translate") as "translate";

const send = (message: BillingMessage) => process.send?.(message);

const quantile = (sorted: Float64Array, q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN;

async function main() {
  if (!process.send) throw new Error("billing-worker needs an IPC channel");
  const database = openPostgresDatabase(url, poolSize);
  // Charging reads no setting; "test" skips the production start-up checks, which need servers.
  const deps = await buildDeps(parseConfig({ APP_ENV: "test", LOG_LEVEL: "silent" }), {
    database,
    limiter: createMemoryRateLimiter(),
    passwords: createNodePasswordHasher(),
    resolveHost: nodeResolver,
    secrets: {
      jwtSecret: "bench-billing-jwt-secret-0123456789abcdef0123",
      csrfSecret: "bench-billing-csrf-secret-0123456789abcdef012",
      encryptionKey: "bench-billing-encryption-key-0123456789abcdef",
    },
    logger: createLogger("silent"),
  });

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ id: string }>("select id from users order by id");
  await client.end();
  const userIds = rows.map((r) => r.id);
  if (userIds.length === 0) throw new Error("no users in the bench database");

  const grantStart = performance.now();
  let nextGrant = 0;
  await Promise.all(
    Array.from({ length: poolSize }, async () => {
      while (nextGrant < userIds.length) {
        const userId = userIds[nextGrant++]!;
        const grant = await grantCredits(deps, {
          userId,
          amount: grantAmount,
          kind: "purchase",
          sourceType: "order",
          sourceId: `bench-billing-${userId}`,
        });
        if (!grant.applied) throw new Error(`grant to ${userId} not applied`);
      }
    }),
  );
  send({
    type: "ready",
    users: userIds.length,
    grantMs: performance.now() - grantStart,
    grantAmount,
  });

  const run = async (durationS: number): Promise<BillingRunResult> => {
    const latencies: number[] = [];
    let failures = 0;
    let cost = 0;
    let firstError: string | undefined;
    const start = performance.now();
    const end = start + durationS * 1000;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (performance.now() < end) {
          const userId = userIds[Math.floor(Math.random() * userIds.length)]!;
          const t = performance.now();
          try {
            const charge = await chargeCredits(deps, { userId, operation: OPERATION });
            latencies.push(performance.now() - t);
            cost = charge.cost;
          } catch (error) {
            failures++;
            firstError ??= error instanceof Error ? error.message : String(error);
          }
        }
      }),
    );
    const elapsedMs = performance.now() - start;
    const sorted = Float64Array.from(latencies).sort();
    return {
      type: "result",
      charges: latencies.length,
      failures,
      elapsedMs,
      chargesPerS: (latencies.length * 1000) / elapsedMs,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      cost,
      firstError,
    };
  };

  // One command at a time, in order.
  let queue = Promise.resolve();
  process.on("message", (command: BillingCommand) => {
    queue = queue.then(async () => {
      if (command.type === "run") {
        send(await run(command.durationS));
      } else {
        await database.close();
        process.disconnect?.();
        process.exit(0);
      }
    });
    queue = queue.catch((error) => {
      send({ type: "error", message: error instanceof Error ? error.message : String(error) });
    });
  });
  process.on("disconnect", () => process.exit(0));
}

main().catch((error) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${message}\n`);
  send({ type: "error", message });
  setTimeout(() => process.exit(1), 100);
});
