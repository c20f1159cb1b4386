import { parseConfig } from "../src/config";
import { buildDeps } from "../src/deps";
import { createLogger } from "../src/lib/logger";
import { chargeCredits, grantCredits } from "../src/modules/credits/service";
import { createMemoryRateLimiter } from "../src/providers/ratelimit/memory";
import { openPostgresDatabase } from "../src/runtime/node/database";
import { nodeResolver } from "../src/runtime/node/dns";
import { createNodePasswordHasher } from "../src/runtime/node/password";

const url = "postgres://postgres@127.0.0.1:5432/listexp";
const database = openPostgresDatabase(url, 10);
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
const { rows } = (await database.db.execute(
  "select id from users where email like 'b%'" as never,
)) as unknown as { rows: { id: string }[] };
const ids = rows.map((r) => r.id);
if (process.argv[2] === "grant") {
  for (const userId of ids)
    await grantCredits(deps, {
      userId,
      amount: 10_000_000,
      kind: "purchase",
      sourceType: "order",
      sourceId: `p-${userId}`,
    });
  process.exit(0);
}
const run = async (s: number) => {
  let n = 0;
  const end = performance.now() + s * 1000;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (performance.now() < end) {
        await chargeCredits(deps, {
          userId: ids[Math.floor(Math.random() * ids.length)]!,
          operation: "translate",
        });
        n++;
      }
    }),
  );
  return n / s;
};
await run(2);
const c0 = process.cpuUsage();
const rate = await run(Number(process.argv[2] ?? 5));
const c = process.cpuUsage(c0);
console.log(
  "charges/s",
  rate.toFixed(0),
  "client µs/charge",
  ((c.user + c.system) / (rate * Number(process.argv[2] ?? 5))).toFixed(1),
);
await database.close();
