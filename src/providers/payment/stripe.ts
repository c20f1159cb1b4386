/**
 * Stripe card payments: hosted Checkout Sessions, refunds and webhook verification.
 * Edge-safe: stripe-node's fetch HTTP client and its Web Crypto (SubtleCrypto) provider only.
 * No database here: the orders module stores what these calls return.
 *
 * Idempotency: every POST carries an Idempotency-Key derived from the order number, so a retried
 * call (our own retry, stripe-node's network retries, or a repeated request from the caller)
 * replays Stripe's first answer instead of creating a second session or refund. Stripe keeps keys
 * for at least 24 hours and refuses a key reused with different parameters (idempotency_conflict).
 */
import Stripe from "stripe";
import { countedCall, type ProviderCalls } from "../provider-calls";

/** Stripe's own default tolerance for webhook timestamps, in seconds, used in both directions. */
const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Stripe requires a Checkout Session's expires_at to be 30 minutes to 24 hours after creation. */
const MIN_SESSION_LIFETIME_MS = 30 * 60_000;
const MAX_SESSION_LIFETIME_MS = 24 * 60 * 60_000;
/** Kept off both bounds so clock skew and request latency cannot push us outside Stripe's window. */
const SESSION_LIFETIME_MARGIN_MS = 60_000;

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_NETWORK_RETRIES = 2;

export interface StripeProviderOptions {
  secretKey: string;
  /** The endpoint's signing secret (`whsec_...`). */
  webhookSecret: string;
  /** Scheme, host and port of the API (tests: `http://127.0.0.1:PORT`); no path prefix. */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Per-attempt deadline, body included; up to 2 retries follow. Default 10000 ms. */
  timeoutMs?: number;
  /** Each call (its retries included) counted as provider `stripe` (deps.metrics). */
  metrics?: ProviderCalls;
}

interface CheckoutSessionInput {
  orderNo: string;
  /** In the currency's minor unit (cents), as Stripe expects. */
  amount: number;
  /** ISO 4217, any case (sent lowercase). */
  currency: string;
  /** Shown to the payer as the line item's name. */
  description: string;
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string;
  /** Clamped into Stripe's window of 30 min .. 24 h from now. */
  expiresAt: Date;
}

interface CheckoutSession {
  id: string;
  /** The hosted payment page to send the payer to. */
  url: string;
}

interface RefundInput {
  paymentIntentId: string;
  /** Minor units. */
  amount: number;
  orderNo: string;
  /** Our refund number: the idempotency key, so two equal partial refunds stay two refunds. */
  refundNo?: string;
}

interface StripeRefund {
  id: string;
  /** Stripe's refund status: pending, requires_action, succeeded, failed or canceled. */
  status: string;
}

/** The handled event types; any other verified event comes back with only id and type. */
const HANDLED_STRIPE_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.expired",
  "charge.refunded",
] as const;

export interface StripeWebhookEvent {
  /** Stripe's event id (`evt_...`): the key that makes redelivery a no-op. */
  id: string;
  type: string;
  /** From client_reference_id / metadata.order_no (charges: metadata set via the session). */
  orderNo?: string;
  paymentIntentId?: string;
  /** Session: amount_total. Charge: the charged amount. Minor units. */
  amountTotal?: number;
  /** charge.refunded only: the total refunded so far, minor units. */
  amountRefunded?: number;
  /** Lowercase ISO 4217. */
  currency?: string;
  /** Session only: paid, unpaid or no_payment_required. */
  paymentStatus?: string;
}

export interface StripeProvider {
  /** Throws StripeProviderError, StripeUnavailableError, or RangeError for invalid input. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession>;
  /** Throws StripeProviderError, StripeUnavailableError, or RangeError for invalid input. */
  refund(input: RefundInput): Promise<StripeRefund>;
  /** Verifies the `Stripe-Signature` header over the raw body. Throws StripeWebhookError. */
  verifyWebhook(
    rawBody: string,
    signatureHeader: string | undefined,
    now?: Date,
  ): Promise<StripeWebhookEvent>;
}

export type StripeWebhookErrorReason =
  | "missing_header"
  | "bad_signature"
  | "stale_timestamp"
  | "future_timestamp"
  | "malformed";

const WEBHOOK_MESSAGES: Record<StripeWebhookErrorReason, string> = {
  missing_header: "Stripe-Signature header is missing",
  bad_signature: "Stripe webhook signature does not match",
  stale_timestamp: "Stripe webhook timestamp is too old",
  future_timestamp: "Stripe webhook timestamp is in the future",
  malformed: "Stripe webhook is malformed",
};

/** A webhook that must be refused (answer 400); the message never carries the secret. */
export class StripeWebhookError extends Error {
  readonly reason: StripeWebhookErrorReason;
  constructor(reason: StripeWebhookErrorReason) {
    super(WEBHOOK_MESSAGES[reason]);
    this.name = "StripeWebhookError";
    this.reason = reason;
  }
}

export type StripeProviderErrorKind =
  /** 400/404: a bad parameter or an unknown object (e.g. resource_missing). */
  | "invalid_request"
  /** 402: the card or payment was declined. */
  | "card_error"
  /** 401: the API key is wrong or revoked (our configuration). */
  | "authentication"
  /** 403: the key lacks a permission (our configuration). */
  | "permission"
  /** The idempotency key was reused with different parameters. */
  | "idempotency_conflict"
  | "unknown";

const PROVIDER_MESSAGES: Record<StripeProviderErrorKind, string> = {
  invalid_request: "Stripe rejected the payment request",
  card_error: "The card payment was declined",
  authentication: "The card payment provider is misconfigured",
  permission: "The card payment provider is misconfigured",
  idempotency_conflict: "This payment request conflicts with an earlier one for the same order",
  unknown: "The card payment provider rejected the request",
};

/**
 * Stripe answered with a definite refusal. `message` is safe to show a user; `stripeMessage` is
 * Stripe's own text for logs, with anything looking like a key redacted.
 */
export class StripeProviderError extends Error {
  readonly kind: StripeProviderErrorKind;
  readonly statusCode?: number;
  /** Stripe's error code, e.g. resource_missing, card_declined, amount_too_large. */
  readonly code?: string;
  readonly declineCode?: string;
  readonly param?: string;
  readonly requestId?: string;
  readonly stripeMessage?: string;
  constructor(
    kind: StripeProviderErrorKind,
    details: {
      statusCode?: number;
      code?: string;
      declineCode?: string;
      param?: string;
      requestId?: string;
      stripeMessage?: string;
    } = {},
  ) {
    super(PROVIDER_MESSAGES[kind]);
    this.name = "StripeProviderError";
    this.kind = kind;
    if (details.statusCode !== undefined) this.statusCode = details.statusCode;
    if (details.code !== undefined) this.code = details.code;
    if (details.declineCode !== undefined) this.declineCode = details.declineCode;
    if (details.param !== undefined) this.param = details.param;
    if (details.requestId !== undefined) this.requestId = details.requestId;
    if (details.stripeMessage !== undefined) this.stripeMessage = details.stripeMessage;
  }
}

export type StripeUnavailableReason =
  | "network"
  | "timeout"
  /** 5xx (or 409 lock contention) after the retries. */
  | "http_status"
  | "rate_limited"
  /** An answer we could not use (not JSON, or a session without a URL). */
  | "bad_response";

/** Stripe could not be reached or failed on its side, after retries; the HTTP layer answers 503. */
export class StripeUnavailableError extends Error {
  readonly reason: StripeUnavailableReason;
  readonly statusCode?: number;
  readonly requestId?: string;
  constructor(
    reason: StripeUnavailableReason,
    details: { statusCode?: number; requestId?: string } = {},
  ) {
    super(
      `Stripe is unavailable: ${reason}${details.statusCode !== undefined ? ` (HTTP ${details.statusCode})` : ""}`,
    );
    this.name = "StripeUnavailableError";
    this.reason = reason;
    if (details.statusCode !== undefined) this.statusCode = details.statusCode;
    if (details.requestId !== undefined) this.requestId = details.requestId;
  }
}

/** Stripe secret / restricted / publishable keys, webhook secrets, client secrets. */
const KEY_LIKE =
  /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9+/=]+|_secret_[A-Za-z0-9]+/g;

function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(KEY_LIKE, "[redacted]");
}

function optionalString(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Which of the caller's faults a (non-transport, non-5xx) Stripe error is. */
function providerErrorKind(err: Stripe.errors.StripeError): StripeProviderErrorKind {
  const E = Stripe.errors;
  if (err instanceof E.StripeIdempotencyError) return "idempotency_conflict";
  if (err instanceof E.StripeCardError) return "card_error";
  if (err instanceof E.StripeAuthenticationError) return "authentication";
  if (err instanceof E.StripePermissionError) return "permission";
  if (err instanceof E.StripeInvalidRequestError) return "invalid_request";
  return "unknown";
}

/**
 * How a call ended for /metrics: `refused` is Stripe's definite answer about the request (a
 * declined card, a bad parameter); a key Stripe refuses is our configuration, an `error`.
 */
function stripeOutcome(error: unknown): "refused" | "timeout" | "error" {
  if (error instanceof StripeProviderError) {
    return error.kind === "authentication" || error.kind === "permission" ? "error" : "refused";
  }
  if (error instanceof StripeUnavailableError && error.reason === "timeout") return "timeout";
  return "error";
}

function mapStripeError(err: unknown, secrets: string[]): Error {
  if (err instanceof StripeProviderError || err instanceof StripeUnavailableError) return err;
  const E = Stripe.errors;
  if (!(err instanceof E.StripeError)) {
    // Not from stripe-node's request path (e.g. a fetch implementation throwing): a transport fault.
    return new StripeUnavailableError("network");
  }
  const requestId = optionalString(err.requestId);
  const statusCode = typeof err.statusCode === "number" ? err.statusCode : undefined;
  const base = requestId !== undefined ? { requestId } : {};
  if (err instanceof E.StripeConnectionError) {
    const detail = err.detail as { code?: unknown } | undefined;
    const timedOut = detail?.code === "ETIMEDOUT" || /timeout/i.test(err.message);
    return new StripeUnavailableError(timedOut ? "timeout" : "network", base);
  }
  if (err instanceof E.StripeRateLimitError) {
    return new StripeUnavailableError("rate_limited", { ...base, statusCode: statusCode ?? 429 });
  }
  if (err instanceof E.StripeAPIError || (statusCode !== undefined && statusCode >= 500)) {
    return statusCode === undefined
      ? new StripeUnavailableError("bad_response", base)
      : new StripeUnavailableError("http_status", { ...base, statusCode });
  }
  const kind = providerErrorKind(err);
  const details: ConstructorParameters<typeof StripeProviderError>[1] = { ...base };
  if (statusCode !== undefined) details.statusCode = statusCode;
  const code = optionalString(err.code);
  if (code !== undefined) details.code = code;
  const declineCode = optionalString(err.decline_code);
  if (declineCode !== undefined) details.declineCode = declineCode;
  const param = optionalString(err.param);
  if (param !== undefined) details.param = param;
  const stripeMessage = optionalString(err.message);
  if (stripeMessage !== undefined) details.stripeMessage = redact(stripeMessage, secrets);
  return new StripeProviderError(kind, details);
}

function parseApiBase(apiBase: string): { host: string; port: string; protocol: "http" | "https" } {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw new TypeError("Stripe apiBase is not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("Stripe apiBase must be http or https");
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    // stripe-node always requests /v1/... from the root; a prefix would be silently dropped.
    throw new TypeError("Stripe apiBase must be scheme, host and port only");
  }
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? "80" : "443"), protocol };
}

const ORDER_NO = /^[\x21-\x7e]{1,200}$/; // printable ASCII, no spaces; fits client_reference_id

function checkOrderNo(orderNo: string): void {
  if (typeof orderNo !== "string" || !ORDER_NO.test(orderNo)) {
    throw new RangeError("orderNo must be 1-200 printable ASCII characters");
  }
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new RangeError("amount must be a positive integer in minor units");
  }
}

/** Unix seconds within Stripe's accepted window for expires_at, measured from `nowMs`. */
export function clampSessionExpiry(expiresAt: Date, nowMs: number): number {
  const min = nowMs + MIN_SESSION_LIFETIME_MS + SESSION_LIFETIME_MARGIN_MS;
  const max = nowMs + MAX_SESSION_LIFETIME_MS - SESSION_LIFETIME_MARGIN_MS;
  const wanted = expiresAt.getTime();
  if (Number.isNaN(wanted)) throw new RangeError("expiresAt is not a valid date");
  if (wanted <= min) return Math.ceil(min / 1000);
  if (wanted >= max) return Math.floor(max / 1000);
  return Math.floor(wanted / 1000);
}

interface ParsedSignatureHeader {
  timestamp: number;
}

/** Mirrors stripe-node's parsing (comma-separated k=v, last `t` wins) but strictly. */
function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  let timestamp: number | null = null;
  let signatures = 0;
  for (const item of header.split(",")) {
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === "t") timestamp = /^\d{1,12}$/.test(value) ? Number(value) : null;
    else if (key === "v1" && value.length > 0) signatures++;
  }
  if (timestamp === null || signatures === 0) return null;
  return { timestamp };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function idOf(value: unknown): string | undefined {
  if (typeof value === "string") return optionalString(value);
  if (isRecord(value)) return optionalString(value.id);
  return undefined;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function orderNoOf(object: Record<string, unknown>): string | undefined {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  return optionalString(object.client_reference_id) ?? optionalString(metadata.order_no);
}

function narrowEvent(parsed: unknown): StripeWebhookEvent {
  if (!isRecord(parsed)) throw new StripeWebhookError("malformed");
  const id = optionalString(parsed.id);
  const type = optionalString(parsed.type);
  if (id === undefined || type === undefined) throw new StripeWebhookError("malformed");
  const event: StripeWebhookEvent = { id, type };
  if (!(HANDLED_STRIPE_EVENTS as readonly string[]).includes(type)) return event;

  const data = isRecord(parsed.data) ? parsed.data : undefined;
  const object = data && isRecord(data.object) ? data.object : undefined;
  if (object === undefined) throw new StripeWebhookError("malformed");

  const fields: Omit<StripeWebhookEvent, "id" | "type"> = {
    orderNo: orderNoOf(object),
    paymentIntentId: idOf(object.payment_intent),
    currency: optionalString(object.currency)?.toLowerCase(),
  };
  if (type === "charge.refunded") {
    fields.amountTotal = numberOf(object.amount);
    fields.amountRefunded = numberOf(object.amount_refunded);
  } else {
    fields.amountTotal = numberOf(object.amount_total);
    fields.paymentStatus = optionalString(object.payment_status);
  }
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (event as unknown as Record<string, unknown>)[key] = value;
  }
  return event;
}

export function createStripeProvider(opts: StripeProviderOptions): StripeProvider {
  const { secretKey, webhookSecret } = opts;
  if (typeof secretKey !== "string" || secretKey.trim() === "") {
    throw new TypeError("Stripe secret key is not configured");
  }
  if (typeof webhookSecret !== "string" || webhookSecret.trim() === "") {
    throw new TypeError("Stripe webhook secret is not configured");
  }
  const secrets = [secretKey, webhookSecret];
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError("timeoutMs must be a positive integer");
  }

  const config: Stripe.StripeConfig = {
    httpClient: Stripe.createFetchHttpClient(opts.fetch),
    maxNetworkRetries: MAX_NETWORK_RETRIES,
    timeout: timeoutMs,
    telemetry: false,
    ...(opts.apiBase !== undefined ? parseApiBase(opts.apiBase) : {}),
  };
  const stripe = new Stripe(secretKey, config);
  const cryptoProvider = Stripe.createSubtleCryptoProvider();

  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw mapStripeError(err, secrets);
    }
  }

  const counted = <T>(task: string, fn: () => Promise<T>) =>
    countedCall(opts.metrics, "stripe", task, stripeOutcome, fn);

  return {
    async createCheckoutSession(input) {
      checkOrderNo(input.orderNo);
      checkAmount(input.amount);
      const currency = String(input.currency).toLowerCase();
      if (!/^[a-z]{3}$/.test(currency)) throw new RangeError("currency must be ISO 4217");
      if (typeof input.description !== "string" || input.description.trim() === "") {
        throw new RangeError("description must not be empty");
      }
      const expiresAt = clampSessionExpiry(input.expiresAt, Date.now());

      const params: Stripe.Checkout.SessionCreateParams = {
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency,
              unit_amount: input.amount,
              product_data: { name: input.description },
            },
          },
        ],
        client_reference_id: input.orderNo,
        metadata: { order_no: input.orderNo },
        // So the PaymentIntent (and refunds / disputes seen later) can be tied back to the order.
        payment_intent_data: { metadata: { order_no: input.orderNo } },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: expiresAt,
      };
      if (input.customerEmail) params.customer_email = input.customerEmail;

      return counted("checkout_session", async () => {
        const session = await call(() =>
          stripe.checkout.sessions.create(params, {
            idempotencyKey: `checkout-session:${input.orderNo}`,
          }),
        );
        if (typeof session.id !== "string" || typeof session.url !== "string" || !session.url) {
          throw new StripeUnavailableError("bad_response");
        }
        return { id: session.id, url: session.url };
      });
    },

    async refund(input) {
      checkOrderNo(input.orderNo);
      checkAmount(input.amount);
      if (typeof input.paymentIntentId !== "string" || !/^pi_\w+$/.test(input.paymentIntentId)) {
        throw new RangeError("paymentIntentId must be a Stripe PaymentIntent id");
      }
      return counted("refund", async () => {
        const refund = await call(() =>
          stripe.refunds.create(
            {
              payment_intent: input.paymentIntentId,
              amount: input.amount,
              metadata: { order_no: input.orderNo },
            },
            // The same refund retried is replayed, never repeated. A second, different amount
            // for the same order is a new key; the order's state in the database guards that.
            { idempotencyKey: `refund:${input.orderNo}:${input.refundNo ?? input.amount}` },
          ),
        );
        if (typeof refund.id !== "string" || typeof refund.status !== "string") {
          throw new StripeUnavailableError("bad_response");
        }
        return { id: refund.id, status: refund.status };
      });
    },

    async verifyWebhook(rawBody, signatureHeader, now = new Date()) {
      if (typeof signatureHeader !== "string" || signatureHeader.trim() === "") {
        throw new StripeWebhookError("missing_header");
      }
      if (typeof rawBody !== "string" || rawBody.length === 0) {
        throw new StripeWebhookError("malformed");
      }
      const header = parseSignatureHeader(signatureHeader);
      if (header === null) throw new StripeWebhookError("malformed");

      let parsed: unknown;
      try {
        // Checks the HMAC first, then rejects timestamps older than the tolerance.
        parsed = await Stripe.webhooks.constructEventAsync(
          rawBody,
          signatureHeader,
          webhookSecret,
          STRIPE_WEBHOOK_TOLERANCE_SECONDS,
          cryptoProvider,
          now.getTime(),
        );
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new StripeWebhookError(
            /tolerance/i.test(err.message) ? "stale_timestamp" : "bad_signature",
          );
        }
        // A signed body that is not JSON, or a thin (v2) event notification.
        throw new StripeWebhookError("malformed");
      }
      // stripe-node only bounds the age; a timestamp far ahead is refused here.
      const nowSeconds = Math.floor(now.getTime() / 1000);
      if (header.timestamp - nowSeconds > STRIPE_WEBHOOK_TOLERANCE_SECONDS) {
        throw new StripeWebhookError("future_timestamp");
      }
      return narrowEvent(parsed);
    },
  };
}
