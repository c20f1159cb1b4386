import type { Config } from "../../config";
import type { Database } from "../../db/client";
import type { RuntimeAdapters } from "../../deps";
import { outboundPolicy } from "../../lib/outbound";
import { createStripeProvider } from "../../providers/payment/stripe";
import { createMemoryRateLimiter } from "../../providers/ratelimit/memory";
import type { RateLimiter } from "../../providers/ratelimit/types";
import { openConfiguredDatabase } from "./database";
import { createGuardedNodeFetch, nodeResolver } from "./dns";
import { createDocumentPool } from "./document-pool";
import { resolveInstanceId } from "./instance-id";
import { createNodePasswordHasher } from "./password";
import { createRedisRateLimiter } from "./redis-rate-limiter";
import { loadNodeSecrets } from "./secrets";
import { createSmtpMailer, smtpRequiresTls } from "./smtp-mailer";

function createNodeRateLimiter(config: Config): RateLimiter {
  return config.REDIS_URL ? createRedisRateLimiter(config.REDIS_URL) : createMemoryRateLimiter();
}

/**
 * Node picks: PGlite or node-postgres, memory or Redis limiter, native argon2, OS DNS, SMTP
 * mail when SMTP_URL is set (else buildDeps picks the HTTP mail API or the log), and quotation
 * documents on worker threads.
 */
export async function createNodeRuntime(
  config: Config,
  overrides: Partial<RuntimeAdapters> & { database?: Database } = {},
): Promise<RuntimeAdapters> {
  const [database, secrets, instanceId] = await Promise.all([
    overrides.database ?? openConfiguredDatabase(config),
    overrides.secrets ?? loadNodeSecrets(config),
    resolveInstanceId(config),
  ]);
  return {
    // Stable across restarts of this server, so it recovers its own unfinished work at start-up.
    ...(instanceId ? { instanceId } : {}),
    limiter: createNodeRateLimiter(config),
    passwords: createNodePasswordHasher(),
    resolveHost: nodeResolver,
    stripe: createStripeProvider,
    // Threads start on the first document, so a CLI that never makes one starts none.
    documents: createDocumentPool({ timeBudgetMs: config.DOCUMENT_TIME_BUDGET_MS }),
    // Outbound calls re-check the address they connect to (DNS rebinding), lib/outbound.ts.
    fetch: createGuardedNodeFetch(outboundPolicy(config)),
    ...(config.SMTP_URL
      ? {
          mailer: createSmtpMailer({
            url: config.SMTP_URL,
            from: config.MAIL_FROM,
            requireTls: smtpRequiresTls(config),
          }),
        }
      : {}),
    ...overrides,
    database,
    secrets,
  };
}
