/**
 * Client and callback verifier for the unified payment gateway (pay_type `alipay` and `wxpay`).
 * The wire protocol is written down in docs/payment-gateway.md; this file follows it exactly.
 * Edge-safe: fetch and Web Crypto only. Provider code only: no database, no config reading.
 *
 * Every request, in both directions, carries X-Pay-Merchant, X-Pay-Timestamp (unix seconds),
 * X-Pay-Nonce and X-Pay-Signature = hex HMAC-SHA256 over
 * `METHOD\nPATH\nTIMESTAMP\nNONCE\nSHA256_HEX(BODY)`, PATH including the query string.
 */
import { z } from "zod";
import { hex, hmacSign, hmacVerify, randomToken, sha256Hex } from "../../lib/crypto";
import { countedCall, type ProviderCalls } from "../provider-calls";

// ---------------------------------------------------------------------------------------------
// Protocol constants
// ---------------------------------------------------------------------------------------------

const GATEWAY_HEADERS = {
  merchant: "X-Pay-Merchant",
  timestamp: "X-Pay-Timestamp",
  nonce: "X-Pay-Nonce",
  signature: "X-Pay-Signature",
} as const;

/** Largest accepted distance, in seconds, between X-Pay-Timestamp and the receiver's clock. */
const DEFAULT_TOLERANCE_SECONDS = 300;

/** The body a callback receiver answers (HTTP 200) once it has accepted a delivery. */
export const CALLBACK_ACK = { code: "SUCCESS" } as const;

const TIMESTAMP_RE = /^[1-9][0-9]{0,11}$/;
const NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;
const SIGNATURE_RE = /^[0-9a-fA-F]{64}$/;
const MERCHANT_RE = /^[A-Za-z0-9_-]{1,64}$/;
const ERROR_CODE_RE = /^[A-Z0-9_]{1,64}$/;

// ---------------------------------------------------------------------------------------------
// Wire types (snake_case, exactly as on the wire)
// ---------------------------------------------------------------------------------------------

const PAY_TYPES = ["alipay", "wxpay"] as const;

const ORDER_STATUSES = ["pending", "paid", "closed", "refunded"] as const;

const REFUND_STATUSES = ["succeeded", "pending", "failed"] as const;

const outTradeNoField = z.string().regex(/^[A-Za-z0-9_-]{6,32}$/);
const outRefundNoField = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/);
const gatewayId = z.string().min(1).max(64);
const amount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const currency = z.string().regex(/^[A-Z]{3}$/);
const httpUrl = z
  .url({ protocol: /^https?$/ })
  .max(512)
  .refine((u) => !u.includes("#"), "must not contain a fragment");
const timestampWithOffset = z.iso.datetime({ offset: true });

const createOrderRequestSchema = z.object({
  out_trade_no: outTradeNoField,
  amount,
  currency,
  pay_type: z.enum(PAY_TYPES),
  subject: z.string().trim().min(1).max(127),
  notify_url: httpUrl,
  return_url: httpUrl.optional(),
  expire_at: z.iso.datetime(),
});
/** `POST /v1/orders` body. `amount` in integer minor units; `expire_at` RFC 3339, UTC (`Z`). */
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

const createOrderResponseSchema = z.object({
  trade_no: gatewayId,
  pay_url: z.url({ protocol: /^(https?|weixin|alipays?)$/ }).max(2048),
  status: z.enum(ORDER_STATUSES),
});
type CreateOrderResponse = z.infer<typeof createOrderResponseSchema>;

const queryOrderResponseSchema = z.object({
  out_trade_no: outTradeNoField,
  trade_no: gatewayId,
  status: z.enum(ORDER_STATUSES),
  amount,
  currency,
  paid_at: timestampWithOffset.nullable().optional(),
});
/** `GET /v1/orders/{out_trade_no}` answer; `paid_at` is set once the order has been paid. */
type QueryOrderResponse = z.infer<typeof queryOrderResponseSchema>;

const refundRequestSchema = z.object({
  out_trade_no: outTradeNoField,
  out_refund_no: outRefundNoField,
  amount,
  reason: z.string().max(80),
});
type RefundRequest = z.infer<typeof refundRequestSchema>;

const refundResponseSchema = z.object({
  refund_no: gatewayId,
  status: z.enum(REFUND_STATUSES),
});
type RefundResponse = z.infer<typeof refundResponseSchema>;

const callbackBase = {
  event_id: gatewayId,
  out_trade_no: outTradeNoField,
  trade_no: gatewayId,
  amount,
  currency,
};

const gatewayCallbackSchema = z.discriminatedUnion("type", [
  z.object({
    ...callbackBase,
    type: z.literal("payment.succeeded"),
    paid_at: timestampWithOffset,
  }),
  z.object({
    ...callbackBase,
    type: z.literal("payment.closed"),
    paid_at: timestampWithOffset.nullable().optional(),
  }),
  z.object({
    ...callbackBase,
    type: z.literal("refund.succeeded"),
    paid_at: timestampWithOffset,
    out_refund_no: outRefundNoField,
    refund_no: gatewayId,
  }),
]);
/**
 * A verified callback body. For `refund.succeeded`, `amount` is the refunded amount and
 * `out_refund_no` / `refund_no` name the refund; otherwise `amount` is the order amount.
 */
export type GatewayCallback = z.infer<typeof gatewayCallbackSchema>;

// ---------------------------------------------------------------------------------------------
// Signing
// ---------------------------------------------------------------------------------------------

export interface SignatureInput {
  /** HTTP method; upper-cased in the canonical string. */
  method: string;
  /** Path as sent on the wire, query string included (`/v1/orders/T123?x=1`). */
  path: string;
  /** Unix seconds, as in X-Pay-Timestamp. */
  timestamp: number | string;
  nonce: string;
  /** Raw body exactly as sent; "" for a GET. */
  body: string;
}

/** `METHOD\nPATH\nTIMESTAMP\nNONCE\nSHA256_HEX(BODY)` (async: SHA-256 is Web Crypto). */
export async function canonicalString(input: SignatureInput): Promise<string> {
  return [
    input.method.toUpperCase(),
    input.path,
    String(input.timestamp),
    input.nonce,
    await sha256Hex(input.body),
  ].join("\n");
}

/** Lowercase hex HMAC-SHA256 of the canonical string: the X-Pay-Signature value. */
export async function signGatewayRequest(
  secret: CryptoKey,
  input: SignatureInput,
): Promise<string> {
  return hex(await hmacSign(secret, await canonicalString(input)));
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** The four authentication headers for one request or callback delivery. */
async function signedHeaders(opts: {
  signingKey: CryptoKey;
  merchantId: string;
  method: string;
  path: string;
  body: string;
  now: Date;
  /** Defaults to 128 random bits, base64url (22 characters). */
  nonce?: string;
}): Promise<Record<string, string>> {
  const timestamp = unixSeconds(opts.now);
  const nonce = opts.nonce ?? randomToken(16);
  const signature = await signGatewayRequest(opts.signingKey, {
    method: opts.method,
    path: opts.path,
    timestamp,
    nonce,
    body: opts.body,
  });
  return {
    [GATEWAY_HEADERS.merchant]: opts.merchantId,
    [GATEWAY_HEADERS.timestamp]: String(timestamp),
    [GATEWAY_HEADERS.nonce]: nonce,
    [GATEWAY_HEADERS.signature]: signature,
  };
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

const USER_MESSAGES: Record<string, string> = {
  INVALID_REQUEST: "The payment request was invalid",
  PAY_TYPE_DISABLED: "This payment method is not available",
  CURRENCY_NOT_SUPPORTED: "This currency is not supported by the payment method",
  ORDER_NOT_FOUND: "The payment order was not found",
  DUPLICATE_OUT_TRADE_NO: "A payment order with this number already exists",
  ORDER_PAID: "The order has already been paid",
  ORDER_CLOSED: "The payment order is closed",
  ORDER_NOT_PAID: "The order has not been paid",
  DUPLICATE_OUT_REFUND_NO: "A refund with this number already exists",
  REFUND_AMOUNT_EXCEEDED: "The refund amount exceeds the refundable amount",
};

/**
 * The gateway refused the request for a business reason (4xx with `{code, message}`).
 * `message` is ours and user-safe; the gateway's own text is kept apart in `gatewayMessage`.
 */
export class PaymentGatewayError extends Error {
  readonly code: string;
  readonly status: number;
  readonly gatewayMessage?: string;
  constructor(code: string, status: number, gatewayMessage?: string) {
    super(USER_MESSAGES[code] ?? "The payment gateway rejected the request");
    this.name = "PaymentGatewayError";
    this.code = code;
    this.status = status;
    if (gatewayMessage !== undefined) this.gatewayMessage = gatewayMessage.slice(0, 200);
  }
}

export type PaymentGatewayUnavailableReason =
  | "network"
  | "timeout"
  | "http_status"
  | "bad_response"
  /** 429: the gateway is throttling us. */
  | "rate_limited"
  /** 401: the gateway refused our credentials or clock (misconfiguration, not the user's fault). */
  | "rejected";

/** The gateway could not be reached or answered unusably; the HTTP layer answers 503. */
export class PaymentGatewayUnavailableError extends Error {
  readonly reason: PaymentGatewayUnavailableReason;
  readonly status?: number;
  readonly code?: string;
  constructor(
    reason: PaymentGatewayUnavailableReason,
    details: { status?: number; code?: string } = {},
  ) {
    const suffix = [
      details.status !== undefined ? `HTTP ${details.status}` : "",
      details.code ?? "",
    ]
      .filter(Boolean)
      .join(" ");
    super(`The payment gateway is unavailable: ${reason}${suffix ? ` (${suffix})` : ""}`);
    this.name = "PaymentGatewayUnavailableError";
    this.reason = reason;
    if (details.status !== undefined) this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
  }
}

export type CallbackRejectReason =
  | "missing_header"
  | "bad_signature"
  | "stale_timestamp"
  | "future_timestamp"
  | "replayed_nonce"
  | "bad_merchant"
  | "malformed_body";

/** A callback failed verification; the receiver answers a non-200 and the gateway retries. */
export class CallbackVerificationError extends Error {
  readonly reason: CallbackRejectReason;
  constructor(reason: CallbackRejectReason) {
    super(`Payment callback rejected: ${reason}`);
    this.name = "CallbackVerificationError";
    this.reason = reason;
  }
}

// ---------------------------------------------------------------------------------------------
// Client
// ---------------------------------------------------------------------------------------------

export interface PaymentGatewayClient {
  /** `POST /v1/orders`. Idempotent per out_trade_no with identical fields. */
  createOrder(req: CreateOrderRequest): Promise<CreateOrderResponse>;
  /** `GET /v1/orders/{out_trade_no}`. */
  queryOrder(outTradeNo: string): Promise<QueryOrderResponse>;
  /** `POST /v1/refunds`. Idempotent per out_refund_no with identical fields. */
  refund(req: RefundRequest): Promise<RefundResponse>;
}

export interface PaymentGatewayClientOptions {
  /** PAYMENT_GATEWAY_URL, e.g. `https://pay.example.com`; a path prefix is kept and signed. */
  baseUrl: string;
  /** PAYMENT_MERCHANT_ID. */
  merchantId: string;
  /** PAYMENT_SIGNING_SECRET imported once with importHmacKey(). */
  signingKey: CryptoKey;
  fetch?: typeof fetch;
  clock?: () => Date;
  /** Whole-request deadline, body included. Default 10000 ms. */
  timeoutMs?: number;
  /** Each request counted as provider `payment_gateway` (deps.metrics; none: not counted). */
  metrics?: ProviderCalls;
}

/**
 * How a request ended for /metrics: `refused` is the gateway's own business answer (a 4xx with
 * its code: the gateway works), `timeout` the deadline, `error` anything else that failed.
 */
function gatewayOutcome(error: unknown): "refused" | "timeout" | "error" {
  if (error instanceof PaymentGatewayError) return "refused";
  if (error instanceof PaymentGatewayUnavailableError && error.reason === "timeout") {
    return "timeout";
  }
  return "error";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function invalidRequest(error: z.ZodError): PaymentGatewayError {
  const field = error.issues[0]?.path.join(".") || "body";
  return new PaymentGatewayError("INVALID_REQUEST", 400, `invalid field: ${field}`);
}

/** The error a non-2xx answer is: unavailable (5xx, 408, 429, not the gateway's), or its own. */
function gatewayError(status: number, json: unknown): Error {
  const code =
    isRecord(json) && typeof json.code === "string" && ERROR_CODE_RE.test(json.code)
      ? json.code
      : undefined;
  const message = isRecord(json) && typeof json.message === "string" ? json.message : undefined;
  if (status >= 500 || status === 408) {
    return new PaymentGatewayUnavailableError("http_status", {
      status,
      ...(code ? { code } : {}),
    });
  }
  if (status === 429) {
    return new PaymentGatewayUnavailableError("rate_limited", {
      status,
      ...(code ? { code } : {}),
    });
  }
  if (code === undefined) {
    // 3xx, or a 4xx that is not the gateway's JSON (a proxy page, a wrong base URL).
    return new PaymentGatewayUnavailableError("bad_response", { status });
  }
  if (status === 401) return new PaymentGatewayUnavailableError("rejected", { status, code });
  return new PaymentGatewayError(code, status, message);
}

export function createGatewayClient(opts: PaymentGatewayClientOptions): PaymentGatewayClient {
  const doFetch = opts.fetch ?? fetch;
  const clock = opts.clock ?? (() => new Date());
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const base = opts.baseUrl.replace(/\/+$/, "");

  const counted = <T>(task: string, fn: () => Promise<T>) =>
    countedCall(opts.metrics, "payment_gateway", task, gatewayOutcome, fn);

  async function call<T>(
    method: "GET" | "POST",
    pathAndQuery: string,
    payload: unknown,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const url = new URL(`${base}${pathAndQuery}`);
    const path = `${url.pathname}${url.search}`;
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const headers: Record<string, string> = {
      accept: "application/json",
      ...(await signedHeaders({
        signingKey: opts.signingKey,
        merchantId: opts.merchantId,
        method,
        path,
        body,
        now: clock(),
      })),
    };
    if (method === "POST") headers["content-type"] = "application/json; charset=utf-8";

    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await doFetch(url, {
        method,
        headers,
        ...(method === "POST" ? { body } : {}),
        redirect: "manual",
        signal,
      });
      status = res.status;
      text = await res.text();
    } catch {
      // Deliberately no `cause`: keep transport details (and anything they echo) out of errors.
      throw new PaymentGatewayUnavailableError(signal.aborted ? "timeout" : "network");
    }

    const json = parseJson(text);
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new PaymentGatewayUnavailableError("bad_response", { status });
      return parsed.data;
    }
    throw gatewayError(status, json);
  }

  return {
    async createOrder(req) {
      const input = createOrderRequestSchema.safeParse(req);
      if (!input.success) throw invalidRequest(input.error);
      return counted("create_order", () =>
        call("POST", "/v1/orders", input.data, createOrderResponseSchema),
      );
    },

    async queryOrder(outTradeNo) {
      const input = outTradeNoField.safeParse(outTradeNo);
      if (!input.success) throw invalidRequest(input.error);
      return counted("query_order", async () => {
        const order = await call(
          "GET",
          `/v1/orders/${encodeURIComponent(input.data)}`,
          undefined,
          queryOrderResponseSchema,
        );
        if (order.out_trade_no !== input.data) {
          throw new PaymentGatewayUnavailableError("bad_response");
        }
        return order;
      });
    },

    async refund(req) {
      const input = refundRequestSchema.safeParse(req);
      if (!input.success) throw invalidRequest(input.error);
      return counted("refund", () => call("POST", "/v1/refunds", input.data, refundResponseSchema));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Callbacks (gateway -> us)
// ---------------------------------------------------------------------------------------------

export interface VerifyGatewayCallbackOptions {
  signingKey: CryptoKey;
  merchantId: string;
  /** Method of the received request (POST). */
  method: string;
  /** Path of the received request as the gateway addressed it, query string included. */
  path: string;
  headers: Headers;
  /** The body exactly as received, before any parsing. */
  rawBody: string;
  now: Date;
  /** Default 300. */
  toleranceSeconds?: number;
  /**
   * Returns true if the nonce was already seen; records it otherwise (atomically, e.g. an
   * INSERT ... ON CONFLICT DO NOTHING or Redis SET NX with expiry). It may be forgotten after
   * `expiresAt`, when the timestamp check alone rejects a replay.
   */
  seenNonce: (nonce: string, expiresAt: Date) => Promise<boolean>;
}

function hexToBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * Verifies a callback delivery and only then parses its body. Order of checks: headers present
 * and well-formed, merchant, timestamp window, signature (constant time, over the raw body),
 * nonce (recorded only once the signature is good, so forgeries cannot burn nonces), body.
 * Amount and currency against the order are the caller's check.
 */
export async function verifyGatewayCallback(
  opts: VerifyGatewayCallbackOptions,
): Promise<GatewayCallback> {
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const merchant = opts.headers.get(GATEWAY_HEADERS.merchant);
  const timestamp = opts.headers.get(GATEWAY_HEADERS.timestamp);
  const nonce = opts.headers.get(GATEWAY_HEADERS.nonce);
  const signature = opts.headers.get(GATEWAY_HEADERS.signature);
  if (
    merchant === null ||
    timestamp === null ||
    nonce === null ||
    signature === null ||
    !MERCHANT_RE.test(merchant) ||
    !TIMESTAMP_RE.test(timestamp) ||
    !NONCE_RE.test(nonce)
  ) {
    throw new CallbackVerificationError("missing_header");
  }
  if (merchant !== opts.merchantId) throw new CallbackVerificationError("bad_merchant");

  const ts = Number(timestamp);
  const now = unixSeconds(opts.now);
  if (ts < now - tolerance) throw new CallbackVerificationError("stale_timestamp");
  if (ts > now + tolerance) throw new CallbackVerificationError("future_timestamp");

  if (!SIGNATURE_RE.test(signature)) throw new CallbackVerificationError("bad_signature");
  const message = await canonicalString({
    method: opts.method,
    path: opts.path,
    timestamp,
    nonce,
    body: opts.rawBody,
  });
  const valid = await hmacVerify(opts.signingKey, hexToBytes(signature), message);
  if (!valid) throw new CallbackVerificationError("bad_signature");

  if (await opts.seenNonce(nonce, new Date((ts + tolerance) * 1000))) {
    throw new CallbackVerificationError("replayed_nonce");
  }

  const parsed = gatewayCallbackSchema.safeParse(parseJson(opts.rawBody));
  if (!parsed.success) throw new CallbackVerificationError("malformed_body");
  return parsed.data;
}

/**
 * Signs one callback delivery as the gateway does, for the app's sandbox gateway, so that its
 * callbacks travel through verifyGatewayCallback like real ones. `path` is the path of the
 * notify_url (query included); each delivery must get a fresh nonce (the default).
 */
export async function signGatewayCallback(opts: {
  signingKey: CryptoKey;
  merchantId: string;
  path: string;
  event: GatewayCallback;
  now: Date;
  nonce?: string;
}): Promise<{ method: "POST"; headers: Record<string, string>; body: string }> {
  const body = JSON.stringify(opts.event);
  const headers = await signedHeaders({
    signingKey: opts.signingKey,
    merchantId: opts.merchantId,
    method: "POST",
    path: opts.path,
    body,
    now: opts.now,
    ...(opts.nonce !== undefined ? { nonce: opts.nonce } : {}),
  });
  return {
    method: "POST",
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
    body,
  };
}
