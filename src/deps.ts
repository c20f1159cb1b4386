import type { Config } from "./config";
import type { Database } from "./db/client";
import { type Clock, systemClock } from "./lib/clock";
import { importEncryptionKey, importHmacKey, randomToken } from "./lib/crypto";
import { type IdGenerator, uuidIds } from "./lib/ids";
import { createLogger, type Logger } from "./lib/logger";
import { createOutboundFetch, outboundPolicy } from "./lib/outbound";
import { boundedHasher, type PasswordHasher } from "./lib/password";
import type { HostResolver } from "./lib/ssrf";
import { sessionAuthority } from "./modules/auth/session-authority";
import { idempotencyKeyStore } from "./modules/credits/idempotency";
import { entitlementGate } from "./modules/entitlements/gate";
import { createWorkInFlight, type HeartbeatMode } from "./modules/inflight/heartbeat";
import type { DocumentRenderer } from "./modules/quotations/documents";
import type { Deps, Metrics, PaymentProviders } from "./ports";
import { createHttpMailer } from "./providers/mail/http";
import { createLogMailer } from "./providers/mail/log";
import type { Mailer } from "./providers/mail/types";
import { createWechatClient, createWechatTemplateSender } from "./providers/messaging/wechat";
import { createGatewayClient } from "./providers/payment/gateway";
// Types only: the Stripe SDK is bundled into the Workers that charge cards, through the factory
// their runtime hands in (RuntimeAdapters.stripe), not into every Worker through this file.
import type { StripeProvider, StripeProviderOptions } from "./providers/payment/stripe";
import type { RateLimiter } from "./providers/ratelimit/types";

/** Keys generated or configured once per process and imported once. */
export interface Secrets {
  jwtSecret: string;
  csrfSecret: string;
  encryptionKey: string;
  /** Signs the sandbox gateway's callbacks; unset: a random key for this process or isolate. */
  paymentSandboxSecret?: string | undefined;
}

/** What a runtime (Node or Workers) provides; buildDeps turns it into Deps. */
export interface RuntimeAdapters {
  database: Database;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  resolveHost: HostResolver;
  secrets: Secrets;
  /** Node: a fetch whose connect lookup re-checks addresses (runtime/node/dns.ts). */
  fetch?: typeof fetch;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** Workers: the client IP header the platform sets; Node: none. */
  platformIpHeader?: string;
  /** Node: the SMTP mailer when SMTP_URL is set; otherwise buildDeps picks (mailerFor). */
  mailer?: Mailer;
  /** Node: the host name and port, when INSTANCE_ID is unset (see config). */
  instanceId?: string;
  /** Workers: `per-item` (a database connection belongs to one request); Node: `shared`. */
  heartbeat?: HeartbeatMode;
  /**
   * Makes the Stripe provider when STRIPE_* are set (providers/payment/stripe.ts
   * createStripeProvider). Node hands it in; a Worker only when its routes or jobs take card
   * payments or refunds (functions/*.ts; scripts/worker-sizes.ts checks that every Worker whose
   * code reads the provider has it). Without it, the provider is null: "not configured".
   */
  stripe?: (options: StripeProviderOptions) => StripeProvider;
  /**
   * Node: the pool of threads that make quotation PDFs and spreadsheets, each within
   * DOCUMENT_TIME_BUDGET_MS (runtime/node/document-pool.ts, ADR 0083). Without it (Workers,
   * in-process tests) the export route makes them in the isolate.
   */
  documents?: DocumentRenderer;
  /** Node: request, charge, provider and task counters for `/metrics` and traces. */
  metrics?: Metrics;
}

/** Nothing counted: Workers and in-process tests pay a no-op call. */
const NO_METRICS: Metrics = {
  observesRequests: false,
  request() {},
  charged() {},
  refunded() {},
  providerCall() {},
  taskRun() {},
};

export async function buildDeps(config: Config, runtime: RuntimeAdapters): Promise<Deps> {
  const gatewayConfigured = Boolean(
    config.PAYMENT_GATEWAY_URL && config.PAYMENT_MERCHANT_ID && config.PAYMENT_SIGNING_SECRET,
  );
  const [jwt, csrf, encryption, paymentKey] = await Promise.all([
    importHmacKey(runtime.secrets.jwtSecret),
    importHmacKey(runtime.secrets.csrfSecret),
    importEncryptionKey(runtime.secrets.encryptionKey),
    // The gateway's key, or the sandbox's own secret: never one derived from another secret.
    importHmacKey(
      (gatewayConfigured && config.PAYMENT_SIGNING_SECRET) ||
        runtime.secrets.paymentSandboxSecret ||
        config.PAYMENT_SANDBOX_SECRET ||
        randomToken(32),
    ),
  ]);
  // Every provider gets this one fetch, so no outbound call escapes the policy (lib/outbound.ts).
  const fetchImpl = createOutboundFetch({
    policy: outboundPolicy(config),
    resolver: runtime.resolveHost,
    fetch: runtime.fetch,
  });
  const wechat =
    config.WECHAT_APP_ID && config.WECHAT_APP_SECRET
      ? createWechatClient({
          appId: config.WECHAT_APP_ID,
          appSecret: config.WECHAT_APP_SECRET,
          apiBase: config.WECHAT_API_BASE,
          fetch: fetchImpl,
        })
      : null;
  const wechatPush =
    config.WECHAT_APP_ID && config.WECHAT_APP_SECRET && config.WECHAT_TEMPLATE_ID
      ? createWechatTemplateSender({
          appId: config.WECHAT_APP_ID,
          appSecret: config.WECHAT_APP_SECRET,
          apiBase: config.WECHAT_API_BASE,
          templateId: config.WECHAT_TEMPLATE_ID,
          fetch: fetchImpl,
        })
      : null;
  const metrics = runtime.metrics ?? NO_METRICS;
  const payments: PaymentProviders = {
    gateway: gatewayConfigured
      ? createGatewayClient({
          baseUrl: config.PAYMENT_GATEWAY_URL!,
          merchantId: config.PAYMENT_MERCHANT_ID,
          signingKey: paymentKey,
          fetch: fetchImpl,
          metrics,
        })
      : null,
    stripe:
      config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET && runtime.stripe
        ? runtime.stripe({
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecret: config.STRIPE_WEBHOOK_SECRET,
            apiBase: config.STRIPE_API_BASE,
            fetch: fetchImpl,
            metrics,
          })
        : null,
    signingKey: paymentKey,
    merchantId: config.PAYMENT_MERCHANT_ID || "sandbox",
    // Production hands out nothing for a button press unless the operator asks for it.
    sandbox: !gatewayConfigured && (config.PAYMENT_SANDBOX ?? config.APP_ENV !== "production"),
  };
  const logger = runtime.logger ?? createLogger(config.LOG_LEVEL);
  const clock = runtime.clock ?? systemClock;
  const work = createWorkInFlight({
    db: runtime.database.db,
    clock,
    logger,
    instanceId: config.INSTANCE_ID || runtime.instanceId || `instance-${randomToken(9)}`,
    mode: runtime.heartbeat ?? "shared",
  });
  return {
    payments,
    config,
    database: runtime.database,
    db: runtime.database.db,
    clock,
    ids: runtime.ids ?? uuidIds,
    logger,
    limiter: runtime.limiter,
    passwords: boundedHasher(runtime.passwords, {
      concurrency: config.PASSWORD_HASH_CONCURRENCY,
      maxQueue: config.PASSWORD_HASH_QUEUE,
    }),
    keys: { jwt, csrf, encryption },
    resolveHost: runtime.resolveHost,
    fetch: fetchImpl,
    wechat,
    wechatPush,
    platformIpHeader: runtime.platformIpHeader,
    mailer: runtime.mailer ?? mailerFor(config, fetchImpl, logger),
    work,
    sessions: sessionAuthority,
    idempotencyKeys: idempotencyKeyStore,
    entitlements: entitlementGate,
    documents: runtime.documents ?? null,
    metrics,
  };
}

/** SMTP is the Node runtime's to give; any runtime can use the HTTP API; else the log. */
function mailerFor(config: Config, fetchImpl: typeof fetch, logger: Logger): Mailer {
  if (config.MAIL_API_KEY) {
    return createHttpMailer({
      apiUrl: config.MAIL_API_URL,
      apiKey: config.MAIL_API_KEY,
      from: config.MAIL_FROM,
      fetch: fetchImpl,
    });
  }
  if (config.SMTP_URL) logger.warn("SMTP_URL is read by the Node server only; mail is logged");
  return createLogMailer(logger, { production: config.APP_ENV === "production" });
}
