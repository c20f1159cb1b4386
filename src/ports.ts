// The ports: `Deps` and the interfaces through which src/http reaches the modules. Types only,
// imported as types everywhere (`import type { Deps } from "../ports"`); the adapters behind
// them are picked in deps.ts (buildDeps). Nothing here may import a module that imports this one
// (test/layers/import-cycles.test.ts; ADR 0096).
import type { Config } from "./config";
import type { Database, Db } from "./db/client";
import type { Clock } from "./lib/clock";
import type { IdGenerator } from "./lib/ids";
import type { Logger } from "./lib/logger";
import type { PasswordHasher } from "./lib/password";
import type { Feature, PlanLimitDenial, PlanLimitHit, PlanLimitName } from "./lib/plans";
import type { HostResolver } from "./lib/ssrf";
import type { WorkInFlight } from "./modules/inflight/heartbeat";
import type { DocumentRenderer } from "./modules/quotations/documents";
import type { Mailer } from "./providers/mail/types";
import type { WechatClient, WechatTemplateSender } from "./providers/messaging/wechat";
import type { PaymentGatewayClient } from "./providers/payment/gateway";
import type { StripeProvider } from "./providers/payment/stripe";
import type { ProviderCalls } from "./providers/provider-calls";
import type { RateLimiter } from "./providers/ratelimit/types";

/** Everything with I/O, handed to routes and services; nothing else reads globals. */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  keys: Keys;
  resolveHost: HostResolver;
  fetch: typeof fetch;
  wechat: WechatClient | null;
  /** Notification pushes (template messages); null when WECHAT_TEMPLATE_ID or the app is unset. */
  wechatPush: WechatTemplateSender | null;
  payments: PaymentProviders;
  platformIpHeader: string | undefined;
  mailer: Mailer;
  /** This instance's unfinished work, renewed while it runs (credit holds, keys, agent runs). */
  work: WorkInFlight;
  /** Tokens, ended sessions and account standing for src/http/auth.ts (modules/auth). */
  sessions: SessionAuthority;
  /** Idempotency-Key claims for src/http/idempotency.ts (modules/credits/idempotency.ts). */
  idempotencyKeys: IdempotencyKeyStore;
  /** Feature gates and plan-limit refusals for src/http (modules/entitlements/gate.ts). */
  entitlements: EntitlementGate;
  /** Where quotation documents are made; null: in this isolate (RuntimeAdapters.documents). */
  documents: DocumentRenderer | null;
  /** What an operator counts (runtime/node/metrics.ts); a no-op unless the runtime gives one. */
  metrics: Metrics;
}

/**
 * Events counted for `/metrics` and named on traces. Each call is a few additions on Node and
 * nothing elsewhere (Workers and in-process tests get the no-op from deps.ts). Label values are
 * bounded sets (route patterns, operations, providers, tasks), never ids.
 */
export interface Metrics extends ProviderCalls {
  /** False: nothing listens, and the app adds no request middleware. */
  readonly observesRequests: boolean;
  /** A finished request: its route pattern ("unmatched" when none), never its path. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** A charge that took credits (a price of 0 is not one). */
  charged(operation: string, credits: number): void;
  /**
   * Charges given back (their work failed, was cut short or cancelled): `refunds` of them, 1
   * unless a sweep gave several back at once, and their `credits` (null: the statement did not
   * say how many).
   */
  refunded(operation: string, credits: number | null, refunds?: number): void;
  /** One scheduled task's run. */
  taskRun(task: string, seconds: number, ok: boolean): void;
}

interface Keys {
  jwt: CryptoKey;
  csrf: CryptoKey;
  encryption: CryptoKey;
}

export interface PaymentProviders {
  /** The real unified gateway; null means the built-in sandbox serves alipay/wxpay. */
  gateway: PaymentGatewayClient | null;
  stripe: StripeProvider | null;
  /** Verifies gateway callbacks (and signs the sandbox's own callbacks when no gateway is set). */
  signingKey: CryptoKey;
  merchantId: string;
  /** The built-in sandbox serves alipay/wxpay (no gateway; PAYMENT_SANDBOX, off in production). */
  sandbox: boolean;
}

/** Who the request is, once requireAuth has verified the access token. */
export interface AuthContext {
  userId: string;
  /** Refresh-token family of this login: CSRF tokens and logout are bound to it. */
  sessionId: string;
  role: "user" | "admin";
  isGuest: boolean;
  /** Cookie-authenticated requests must also carry the CSRF cookie (browser double submit). */
  via: "bearer" | "cookie";
}

/**
 * What the auth middlewares (src/http/auth.ts) need from the auth module, handed over as
 * `deps.sessions` (buildDeps wires modules/auth/session-authority.ts): src/http reads no table
 * itself.
 */
export interface SessionAuthority {
  /** Null for any bad token; one verified before comes back as a plain value, not a promise. */
  verifyAccessToken(
    deps: Deps,
    token: string,
  ): Omit<AuthContext, "via"> | null | Promise<Omit<AuthContext, "via"> | null>;
  /** A plain boolean while the ended-session set is fresh (modules/auth/revocations.ts). */
  isSessionEnded(deps: Deps, sessionId: string): boolean | Promise<boolean>;
  /** The account's role and status as stored now; undefined when it is gone. */
  accountStanding(
    deps: Deps,
    userId: string,
  ): Promise<{ role: string; status: string } | undefined>;
}

/**
 * What src/http/entitlements.ts asks of the plans, handed over as `deps.entitlements` (buildDeps
 * wires modules/entitlements/gate.ts): src/http reads no table itself.
 */
export interface EntitlementGate {
  /** Refuses (403, or 401 for an inactive account) what the caller's plan does not allow. */
  checkFeature(
    deps: Deps,
    userId: string,
    feature: Feature,
    options: { limit?: PlanLimitName },
  ): Promise<void>;
  /** The 403 body for a limit reached in SQL: its max and the plans on sale that allow more. */
  describePlanLimit(deps: Deps, hit: PlanLimitHit): Promise<PlanLimitDenial>;
}

export type IdempotencyClaim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: unknown }
  | { kind: "mismatch" }
  | { kind: "in_flight" };

/**
 * Where src/http/idempotency.ts claims keys and keeps their outcomes, handed over as
 * `deps.idempotencyKeys` (buildDeps wires modules/credits/idempotency.ts): src/http reads no
 * table itself.
 */
export interface IdempotencyKeyStore {
  claim(
    deps: Deps,
    input: { userId: string; key: string; requestHash: string },
  ): Promise<IdempotencyClaim>;
  complete(
    deps: Deps,
    input: { userId: string; key: string; status: number; body: unknown },
  ): Promise<void>;
  release(deps: Deps, input: { userId: string; key: string }): Promise<void>;
}
