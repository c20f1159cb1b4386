import { z } from "zod";
import { parseAllowEntry } from "./lib/outbound";
import { patternEstimator, weakSecretProblems } from "./lib/secret-strength";

const csv = z
  .string()
  .default("")
  .transform((s) =>
    s
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  );

/** "true"/"1" or "false"/"0"; unset or empty takes the default. */
const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .default("")
    .transform((v) => (v === "" ? fallback : v === "true" || v === "1"));

const optionalUrl = z
  .string()
  .default("")
  .transform((s) => s.trim() || undefined)
  .pipe(z.url().optional());

const optionalSecret = z
  .string()
  .default("")
  .transform((s) => s.trim() || undefined)
  .pipe(z.string().min(32, "must be at least 32 characters").optional());

/** Why a CORS_ORIGINS entry cannot be allowed with credentials, or undefined if it can. */
function corsOriginProblem(entry: string): string | undefined {
  if (entry === "*" || entry.toLowerCase() === "null") {
    return `"${entry}" cannot be allowed with credentials (list the web app's exact origins)`;
  }
  if (!URL.canParse(entry)) return `"${entry}" is not an origin (scheme://host[:port])`;
  const url = new URL(entry);
  // A browser sends the serialized origin; anything else (a path, a wildcard host) never matches.
  const exact = url.origin === entry && !url.hostname.includes("*");
  if ((url.protocol !== "https:" && url.protocol !== "http:") || !exact) {
    return `"${entry}" is not an origin (scheme://host[:port], no path or trailing slash)`;
  }
  return undefined;
}

/** Every setting the service reads, from env vars (Node) or bindings (Workers). */
export const configSchema = z.object({
  APP_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Node: the address to listen on. Unset: 127.0.0.1 in development and tests (nothing else on
   * the network reaches a laptop's server), 0.0.0.0 in production (behind its proxy).
   */
  HOST: z.string().trim().default(""),
  DATA_DIR: z.string().default("./.data"),
  /**
   * Names this instance's unfinished work (credit holds, idempotency keys, agent runs) so that
   * when it restarts it refunds and resumes that work at once. Must be unique per running
   * instance and stable across its restarts. Unset: host name and port on Node; a random id per
   * isolate on Workers (its work is recovered by the sweep within two minutes).
   */
  INSTANCE_ID: z.string().trim().max(200).default(""),
  PUBLIC_BASE_URL: z.string().default(""),
  /**
   * Node: how long a SIGTERM or SIGINT may take to drain (in-flight requests answered, background
   * work handed back, the pool closed) before the process stops the rest and exits.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(25_000),
  /**
   * Node on PostgreSQL: how many server processes share the port (node:cluster). Unset: one per
   * core. The embedded database is single-process, so it always runs one.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(0).max(256).default(0),
  /** `GET /metrics` (Prometheus text) answers only with `Authorization: Bearer <token>`; unset: off. */
  METRICS_TOKEN: optionalSecret,
  /** OpenTelemetry traces go to this OTLP/HTTP endpoint (…/v1/traces is appended); unset: off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_SERVICE_NAME: z.string().trim().max(200).default("trade-assistant-service"),
  DATABASE_URL: optionalUrl,
  /** Workers only: route the Neon driver's WebSocket through this relay (self-hosted Postgres). */
  NEON_WS_PROXY: z.string().default(""),
  /**
   * Hosts outbound calls may reach even on a private, loopback or link-local address: `host` or
   * `host:port`, comma-separated (a local vLLM or Ollama). Unset: public hosts only.
   */
  OUTBOUND_ALLOW_HOSTS: csv.refine((list) => list.every((e) => parseAllowEntry(e) !== undefined), {
    error: "each entry must be host or host:port",
  }),
  /** Workers only: DNS-over-HTTPS endpoint the SSRF guard resolves names with. */
  DOH_ENDPOINT: z.url().default("https://cloudflare-dns.com/dns-query"),
  /** Workers only: where the PDF export's CJK font (a .ttf/.otf) is fetched from, once per isolate. */
  PDF_FONT_URL: optionalUrl,
  /**
   * Node: the longest one quotation PDF or .xlsx may take, queue wait included; past it the
   * request answers 503 and the worker thread rendering it is ended (docs/adr/0083).
   */
  DOCUMENT_TIME_BUDGET_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: optionalUrl,
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: z.string().default(""),
  JWT_SECRET: optionalSecret,
  CSRF_SECRET: optionalSecret,
  APP_ENCRYPTION_KEY: optionalSecret,
  JWT_ISSUER: z.string().min(1).default("trade-assistant"),
  JWT_AUDIENCE: z.string().min(1).default("trade-assistant-api"),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * How an ended session's access tokens are refused: `poll` keeps the set of ended sessions
   * per instance, refreshed at most every SESSION_REVOCATION_POLL_MS (one query per instance per
   * interval); `query` reads it on every request.
   * docs/adr/0052-session-revocation-reach.md has both costs.
   */
  SESSION_CHECK: z.enum(["poll", "query"]).default("poll"),
  SESSION_REVOCATION_POLL_MS: z.coerce.number().int().min(50).max(1000).default(500),
  /**
   * How many event streams (agent events, streamed chat) one user may hold open at once on one
   * instance; one more is answered 429 (docs/adr/0088-streams-end-with-their-session.md).
   */
  STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
  COOKIE_SECURE: z
    .enum(["auto", "true", "false"])
    .default("auto")
    .transform((v) => v),
  /**
   * SameSite of the session cookies. `lax` (default): the access and CSRF cookies are Lax, the
   * refresh cookie Strict, so a frontend on another site gets no session. `none`: every session
   * cookie is `SameSite=None; Secure`, for a frontend on another site (listed in CORS_ORIGINS);
   * it needs Secure cookies (COOKIE_SECURE=true, or auto in production). `strict`: all Strict.
   */
  COOKIE_SAMESITE: z.enum(["lax", "strict", "none"]).default("lax"),
  /**
   * Exact origins (`https://app.example.com`) whose scripts may call the API with credentials.
   * `*` and `null` are refused in every environment: credentials with a wildcard are never
   * right, and `null` is the origin of sandboxed iframes and `data:` pages anyone can open.
   */
  CORS_ORIGINS: csv.superRefine((list, ctx) => {
    for (const entry of list) {
      const problem = corsOriginProblem(entry);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }
  }),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  ADMIN_EMAILS: csv.transform((list) => list.map((e) => e.toLowerCase())),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(64),
  WECHAT_APP_ID: z.string().default(""),
  WECHAT_APP_SECRET: z.string().default(""),
  WECHAT_API_BASE: z.url().default("https://api.weixin.qq.com"),
  WECHAT_TOKEN: z.string().default(""),
  /**
   * The Official Account's EncodingAESKey (43 characters): with it, message pushes must come in
   * safe or compatible mode (`encrypt_type=aes`) and replies are encrypted; plaintext is refused.
   */
  WECHAT_ENCODING_AES_KEY: z
    .string()
    .trim()
    .default("")
    .refine((s) => s === "" || /^[A-Za-z0-9+/]{43}$/.test(s), {
      error: "must be the 43-character EncodingAESKey",
    }),
  /**
   * Official Account template for notification pushes (fields: src/modules/notifications/push.ts);
   * empty: pushing is off. Needs WECHAT_APP_ID and WECHAT_APP_SECRET too.
   */
  WECHAT_TEMPLATE_ID: z.string().trim().default(""),
  /** Notifications pushed per run of the reminders task at most. */
  WECHAT_PUSH_BATCH: z.coerce.number().int().min(1).max(1000).default(100),
  /** Unified payment gateway (alipay, wxpay); unset: the built-in sandbox serves payments. */
  PAYMENT_GATEWAY_URL: optionalUrl,
  PAYMENT_MERCHANT_ID: z.string().default(""),
  PAYMENT_SIGNING_SECRET: z.string().default(""),
  /**
   * The built-in sandbox gateway (alipay/wxpay paid by a button) when no gateway is configured:
   * on by default outside production, off in production unless set to true.
   */
  PAYMENT_SANDBOX: z
    .enum(["true", "false", "1", "0", ""])
    .default("")
    .transform((v) => (v === "" ? undefined : v === "true" || v === "1")),
  /**
   * The key the sandbox signs its own callbacks with (Workers; Node generates one into
   * DATA_DIR/secrets.json). Unset on Workers: a random key per isolate, which is enough because
   * the sandbox signs and verifies in the same request.
   */
  PAYMENT_SANDBOX_SECRET: optionalSecret,
  /**
   * The frontend page a payer lands on after the gateway or Stripe (and the sandbox page's link
   * back), with `?order_no=` added (and `&result=success|cancel` from Stripe). Unset:
   * `FRONTEND_URL/checkout/result`. The notify/callback URLs stay on PUBLIC_BASE_URL.
   */
  PAYMENT_RETURN_URL: optionalUrl.refine((url) => !url?.includes("#"), {
    error: "must not contain a fragment (#): the order number is added as a query",
  }),
  /** Minutes a pending order waits for payment. */
  PAYMENT_ORDER_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(30),
  /** Stripe (pay_type card); STRIPE_API_BASE only points tests at a fake server. */
  STRIPE_SECRET_KEY: z.string().default(""),
  STRIPE_WEBHOOK_SECRET: z.string().default(""),
  STRIPE_API_BASE: optionalUrl,
  /**
   * Frankfurter-protocol (ECB reference rates) API the daily refresh reads; `off` disables it.
   * Unset: the public Frankfurter API (DEFAULT_RATES_API_URL), except under APP_ENV=test, where
   * a test points it at a fake. After parsing: the URL, or "" when off.
   */
  RATES_API_URL: z
    .string()
    .default("")
    .transform((s) => s.trim())
    .pipe(z.union([z.enum(["", "off"]), z.url({ error: "must be a URL or off" })])),
  /**
   * Second rates source, speaking the ExchangeRate-API open-access protocol (`GET
   * {url}/v6/latest/EUR`, ~160 currencies, no key); `off` disables it. Unset: its public host
   * (DEFAULT_RATES_WIDE_API_URL), except under APP_ENV=test. After parsing: the URL, or "".
   */
  RATES_WIDE_API_URL: z
    .string()
    .default("")
    .transform((s) => s.trim())
    .pipe(z.union([z.enum(["", "off"]), z.url({ error: "must be a URL or off" })])),
  /**
   * QStash (Upstash) for background jobs: with a token, agent runs are published to
   * `${PUBLIC_BASE_URL}/api/v1/jobs/agent-run`; without one they run in-process. The signing keys
   * verify deliveries on POST /api/v1/jobs/:name (unset: that route answers 503).
   */
  QSTASH_TOKEN: z.string().trim().default(""),
  QSTASH_URL: z.url().default("https://qstash.upstash.io"),
  QSTASH_CURRENT_SIGNING_KEY: z.string().trim().default(""),
  QSTASH_NEXT_SIGNING_KEY: z.string().trim().default(""),
  /**
   * The web app users open; links in mails (`/verify-email?token=`, `/reset-password?token=`),
   * the referral link (`/register?ref=`), invitations (`/invite?token=`) and the payment return
   * (`/checkout/result`) point at it. Unset: PUBLIC_BASE_URL, else `http://localhost:PORT`, and
   * the Node server serves small built-in pages at those paths (src/modules/link-pages, ADR
   * 0092). Required in production.
   */
  FRONTEND_URL: optionalUrl,
  /**
   * Node: mail through SMTP with nodemailer, `smtp://user:pass@host:587` (STARTTLS, required in
   * production) or `smtps://user:pass@host:465` (TLS from the start). No query: nodemailer
   * would read `?requireTLS=false` or `?tls.rejectUnauthorized=false` from it.
   */
  SMTP_URL: z
    .string()
    .default("")
    .transform((s) => s.trim() || undefined)
    .pipe(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional())
    .refine((url) => !url || new URL(url).search === "", {
      error: "must not carry options (?...): TLS follows APP_ENV and SMTP_ALLOW_PLAINTEXT",
    }),
  /**
   * Let an `smtp://` SMTP_URL log in and send without STARTTLS when the server offers none.
   * Production requires STARTTLS and refuses this setting unless SMTP_URL's host is loopback
   * (a relay on the same machine); elsewhere STARTTLS is used whenever the server offers it.
   */
  SMTP_ALLOW_PLAINTEXT: bool(false),
  /** Sender of every mail, `Name <address>` or an address; required with SMTP_URL or MAIL_API_KEY. */
  MAIL_FROM: z.string().trim().default(""),
  /**
   * Any runtime (Workers): mail through an HTTP mail API speaking Resend's `POST /emails`
   * protocol (docs/mail.md). MAIL_API_URL only points tests at a fake server.
   */
  MAIL_API_KEY: z.string().trim().default(""),
  MAIL_API_URL: z.url().default("https://api.resend.com"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Node only: run the scheduled jobs in-process (croner); on unless set to false. */
  SCHEDULER_ENABLED: bool(true),
  /**
   * Production refuses the embedded database (PGlite under DATA_DIR), the in-memory rate limiter
   * and running without a mail provider, since each is wrong for several instances; a single-box
   * private deployment that wants one says so here.
   */
  ALLOW_EMBEDDED_DATABASE: bool(false),
  ALLOW_MEMORY_RATE_LIMIT: bool(false),
  ALLOW_NO_MAIL: bool(false),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses settings once at start-up; a bad one stops the process with its name, not a trace. */
export function parseConfig(input: ConfigInput): Config {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === "string") cleaned[key] = value;
  }
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`),
    );
  }
  result.data.RATES_API_URL = ratesApiUrl(result.data);
  result.data.RATES_WIDE_API_URL = sourceUrl(
    result.data.APP_ENV,
    result.data.RATES_WIDE_API_URL,
    DEFAULT_RATES_WIDE_API_URL,
  );
  const problems: string[] = [];
  // A mail provider without a sender would fail on every mail, long after start-up.
  if ((result.data.SMTP_URL || result.data.MAIL_API_KEY) && !result.data.MAIL_FROM) {
    problems.push("MAIL_FROM: required when SMTP_URL or MAIL_API_KEY is set");
  }
  // Browsers drop a SameSite=None cookie that is not Secure: every login would look fine, then 401.
  if (result.data.COOKIE_SAMESITE === "none" && !cookiesSecure(result.data)) {
    problems.push("COOKIE_SAMESITE: none requires Secure cookies (set COOKIE_SECURE=true)");
  }
  if (result.data.APP_ENV === "production") problems.push(...productionProblems(result.data));
  if (problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

/** The public ECB euro reference rates, republished by the Frankfurter API (no key). */
export const DEFAULT_RATES_API_URL = "https://api.frankfurter.dev/v1";

/** The public open-access host of the second rates source (~160 currencies, no key). */
export const DEFAULT_RATES_WIDE_API_URL = "https://open.er-api.com";

/** RATES_API_URL as the service uses it: the URL to refresh from, or "" when refreshing is off. */
function ratesApiUrl(config: Pick<Config, "APP_ENV" | "RATES_API_URL">): string {
  return sourceUrl(config.APP_ENV, config.RATES_API_URL, DEFAULT_RATES_API_URL);
}

/** A rates source setting as used: `off` is "", unset is the default (none under test). */
function sourceUrl(env: Config["APP_ENV"], value: string, fallback: string): string {
  if (value === "off") return "";
  if (value !== "") return value;
  // Tests never reach the public internet unless they say so.
  return env === "test" ? "" : fallback;
}

const SECRET_SETTINGS = ["JWT_SECRET", "CSRF_SECRET", "APP_ENCRYPTION_KEY"] as const;
/**
 * Our own keys that may be left unset (then generated, or the feature is off: METRICS_TOKEN).
 * Keys a provider issues (Stripe, the gateway, WeChat, QStash, the mail API) are judged by
 * their issuer, not here.
 */
const OPTIONAL_SECRET_SETTINGS = ["PAYMENT_SANDBOX_SECRET", "METRICS_TOKEN"] as const;
/** Every secret setting production judges for strength (the Node runtime again, with words). */
export const JUDGED_SECRET_SETTINGS = [...SECRET_SETTINGS, ...OPTIONAL_SECRET_SETTINGS] as const;
/** Outbound endpoints: production talks to each over TLS, or the traffic is readable in transit. */
const PROVIDER_URL_SETTINGS = [
  "PAYMENT_GATEWAY_URL",
  "RATES_API_URL",
  "RATES_WIDE_API_URL",
  "MAIL_API_URL",
  "QSTASH_URL",
  "PDF_FONT_URL",
  "STRIPE_API_BASE",
  "WECHAT_API_BASE",
  "DOH_ENDPOINT",
] as const;
/** Plain http is only harmless when it never leaves the machine (a local sidecar). */
function loopback(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Each secret set, hard to guess (lib/secret-strength.ts: keyboard runs, sequences, repeats;
 * the Node runtime adds the dictionaries when it loads them), and different from the others.
 */
function secretProblems(config: Config): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const estimate = patternEstimator();
  for (const name of JUDGED_SECRET_SETTINGS) {
    const value = config[name];
    if (!value) {
      if ((SECRET_SETTINGS as readonly string[]).includes(name)) {
        problems.push(`${name}: required in production (at least 32 characters)`);
      }
      continue;
    }
    problems.push(...weakSecretProblems([[name, value]], estimate));
    const twin = seen.get(value);
    if (twin) problems.push(`${name}: must differ from ${twin}`);
    else seen.set(value, name);
  }
  return problems;
}

/** Provider URLs that are set: https, or plain http to loopback only. */
function providerUrlProblems(config: Config): string[] {
  const problems: string[] = [];
  for (const name of PROVIDER_URL_SETTINGS) {
    const value = config[name];
    if (!value) continue;
    const url = new URL(value);
    if (url.protocol !== "https:" && !loopback(url)) {
      problems.push(`${name}: must be an https:// URL in production`);
    }
  }
  return problems;
}

/**
 * What `APP_ENV=production` must not start with, one line per setting: defaults that are fine
 * on a laptop (generated secrets, PGlite, a memory limiter, mail in the log, URLs from the Host
 * header) are each a hole once the service is public or runs on more than one instance.
 */
function productionProblems(config: Config): string[] {
  const problems = [...secretProblems(config), ...providerUrlProblems(config)];
  if (!config.PUBLIC_BASE_URL.trim()) {
    problems.push("PUBLIC_BASE_URL: required in production (links and callback URLs use it)");
  } else if (!URL.canParse(config.PUBLIC_BASE_URL.trim())) {
    problems.push("PUBLIC_BASE_URL: must be an absolute URL");
  }
  if (!config.FRONTEND_URL) {
    problems.push(
      "FRONTEND_URL: required in production (the web app the mailed, referral and payment-return links open)",
    );
  } else if (!config.FRONTEND_URL.startsWith("https://")) {
    problems.push("FRONTEND_URL: must be an https:// URL in production (its links carry tokens)");
  }
  if (config.PAYMENT_RETURN_URL && !config.PAYMENT_RETURN_URL.startsWith("https://")) {
    problems.push("PAYMENT_RETURN_URL: must be an https:// URL in production");
  }
  if (config.CORS_ORIGINS.length === 0) {
    problems.push("CORS_ORIGINS: required in production (the web app's origins)");
  }
  if (!config.DATABASE_URL && !config.ALLOW_EMBEDDED_DATABASE) {
    problems.push(
      "DATABASE_URL: required in production (or ALLOW_EMBEDDED_DATABASE=true for one box)",
    );
  }
  const sharedLimiter =
    config.REDIS_URL || (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN);
  if (!sharedLimiter && !config.ALLOW_MEMORY_RATE_LIMIT) {
    problems.push(
      "REDIS_URL: required in production, or UPSTASH_REDIS_REST_URL and _TOKEN (or ALLOW_MEMORY_RATE_LIMIT=true for one box)",
    );
  }
  if (config.SMTP_ALLOW_PLAINTEXT && config.SMTP_URL && !loopback(new URL(config.SMTP_URL))) {
    problems.push(
      "SMTP_ALLOW_PLAINTEXT: refused in production unless SMTP_URL's host is loopback (the password and the mail would cross the network in clear)",
    );
  }
  if (!config.SMTP_URL && !config.MAIL_API_KEY && !config.ALLOW_NO_MAIL) {
    problems.push("SMTP_URL or MAIL_API_KEY: required in production (or ALLOW_NO_MAIL=true)");
  }
  return problems;
}

/** Whether auth cookies carry the Secure flag. */
export function cookiesSecure(config: Config): boolean {
  if (config.COOKIE_SECURE === "auto") return config.APP_ENV === "production";
  return config.COOKIE_SECURE === "true";
}

/**
 * The origin outgoing links and callback URLs are built on. Never the request's Host header:
 * anyone can send one, and a notify_url built on it sends the payment callback to them.
 * Production requires PUBLIC_BASE_URL; elsewhere the embedded default's own address.
 */
export function publicBaseUrl(config: Config): string {
  return (config.PUBLIC_BASE_URL.trim() || `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}
