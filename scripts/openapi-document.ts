/**
 * The served OpenAPI document, from the app built on its embedded defaults with no database
 * behind it: building the document runs no query. Used by scripts/openapi-doc.ts and tests.
 */
import { createApp, OPENAPI_PATH } from "../src/app";
import { parseConfig } from "../src/config";
import type { Database } from "../src/db/client";
import { buildDeps } from "../src/deps";
import { createLogger } from "../src/lib/logger";
import { createMemoryRateLimiter } from "../src/providers/ratelimit/memory";
import { nodeResolver } from "../src/runtime/node/dns";
import { createNodePasswordHasher } from "../src/runtime/node/password";

/** A database that is never reached: building the document runs no query. */
const unreachable = new Proxy(
  {},
  {
    get(_target, property) {
      if (property === "then") return undefined;
      throw new Error(`openapi-doc: the document needed the database (${String(property)})`);
    },
  },
);
const noDatabase = {
  kind: "pglite",
  db: unreachable,
  ping: async () => {},
  close: async () => {},
} as unknown as Database;

const DOC_ONLY_SECRET = "openapi-document-only-0123456789abcdef";

export async function openApiDocument(): Promise<unknown> {
  const deps = await buildDeps(parseConfig({ APP_ENV: "test", LOG_LEVEL: "silent" }), {
    database: noDatabase,
    limiter: createMemoryRateLimiter(),
    passwords: createNodePasswordHasher(),
    resolveHost: nodeResolver,
    secrets: {
      jwtSecret: DOC_ONLY_SECRET,
      csrfSecret: DOC_ONLY_SECRET,
      encryptionKey: DOC_ONLY_SECRET,
    },
    logger: createLogger("silent"),
  });
  const res = await createApp(deps).request(OPENAPI_PATH);
  if (res.status !== 200) throw new Error(`${OPENAPI_PATH} answered ${res.status}`);
  return res.json();
}
