import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake unified payment gateway on 127.0.0.1 speaking the protocol of docs/payment-gateway.md:
 * `POST /v1/orders`, `GET /v1/orders/{out_trade_no}`, `POST /v1/refunds`, each authenticated by
 * X-Pay-Merchant / X-Pay-Timestamp / X-Pay-Nonce / X-Pay-Signature, and signed callbacks to the
 * order's notify_url. Signing and verification are written here independently of
 * src/providers/payment/gateway.ts (node:crypto, straight from the document), so a test that
 * passes proves the client and the document agree, not that the client agrees with itself.
 */

type OrderStatus = "pending" | "paid" | "closed" | "refunded";
type RefundStatus = "succeeded" | "pending" | "failed";
type CallbackType = "payment.succeeded" | "payment.closed" | "refund.succeeded";

/**
 * http-502 and hang fail before the gateway does anything; processed-502 does the work (an
 * order or refund is recorded) and then answers 502, as a proxy losing the gateway's answer.
 */
type FakeGatewayFailure = "http-502" | "hang" | "processed-502" | null;

interface FakeOrder {
  out_trade_no: string;
  trade_no: string;
  amount: number;
  currency: string;
  pay_type: "alipay" | "wxpay";
  subject: string;
  notify_url: string;
  return_url?: string;
  expire_at: string;
  pay_url: string;
  status: OrderStatus;
  paid_at: string | null;
  refunded_amount: number;
  /** The last event sent for this order; deliverCallback() sends it again. */
  lastEvent?: Record<string, unknown>;
}

interface FakeRefund {
  out_trade_no: string;
  out_refund_no: string;
  refund_no: string;
  amount: number;
  reason: string;
  status: RefundStatus;
}

interface ReceivedRequest {
  method: string;
  /** Request target: path and query, as signed. */
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
  status: number;
  responseBody: unknown;
}

interface CallbackDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface DeliveredCallback extends CallbackDelivery {
  /** HTTP status the receiver answered; 0 when it could not be reached. */
  status: number;
  responseBody: string;
  /** The gateway's rule: acknowledged only by HTTP 200 with `{"code":"SUCCESS"}`. */
  acknowledged: boolean;
}

interface DeliverOptions {
  /** How many deliveries to make (each freshly signed, same event_id). Default 1. */
  times?: number;
  /** Fields merged into the event before signing (a validly signed but wrong event). */
  patch?: Record<string, unknown>;
  /** Signing time; default now. */
  signedAt?: Date;
  /** Tampers with the delivery after signing; return a replacement or edit in place. */
  mutate?: (delivery: CallbackDelivery) => CallbackDelivery | undefined;
}

export interface FakeGateway {
  url: string;
  merchantId: string;
  secret: string;
  /** Every request received, in order, with the answer given. */
  requests: ReceivedRequest[];
  /** Every callback delivery made, in order. */
  callbacks: DeliveredCallback[];
  getOrder(outTradeNo: string): FakeOrder | undefined;
  getRefund(outRefundNo: string): FakeRefund | undefined;
  /** Marks a pending order paid and POSTs a signed `payment.succeeded`; returns the HTTP status. */
  pay(outTradeNo: string): Promise<number>;
  /** Closes a pending order (as on expiry) and POSTs a signed `payment.closed`. */
  closeOrder(outTradeNo: string): Promise<number>;
  /** Settles a pending refund and POSTs a signed `refund.succeeded`. */
  completeRefund(outRefundNo: string): Promise<number>;
  /** Sends the order's last event again, `times` times; returns each HTTP status. */
  deliverCallback(outTradeNo: string, opts?: DeliverOptions): Promise<number[]>;
  /** What following refunds answer (default "succeeded"). */
  setRefundOutcome(outcome: RefundStatus): void;
  /** Makes every following request fail this way (null restores normal answers). */
  fail(mode: FakeGatewayFailure): void;
  close(): Promise<void>;
}

const TOLERANCE_SECONDS = 300;
const TIMESTAMP_RE = /^[1-9][0-9]{0,11}$/;
const NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;
const SIGNATURE_RE = /^[0-9a-fA-F]{64}$/;
const OUT_TRADE_NO_RE = /^[A-Za-z0-9_-]{6,32}$/;
const OUT_REFUND_NO_RE = /^[A-Za-z0-9_-]{6,64}$/;
const CURRENCY_RE = /^[A-Z]{3}$/;
const RFC3339_UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The document's canonical string and signature, computed with node:crypto. */
function fakeSign(
  secret: string,
  method: string,
  path: string,
  timestamp: string,
  nonce: string,
  body: string | Buffer,
): string {
  const bodyHash = createHash("sha256").update(body).digest("hex");
  const canonical = `${method.toUpperCase()}\n${path}\n${timestamp}\n${nonce}\n${bodyHash}`;
  return createHmac("sha256", secret).update(canonical).digest("hex");
}

class GatewayHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 512) return false;
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && u.hash === "";
  } catch {
    return false;
  }
}

function isAmount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

function invalid(field: string): GatewayHttpError {
  return new GatewayHttpError(400, "INVALID_REQUEST", `invalid field: ${field}`);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startFakeGateway(opts: {
  merchantId: string;
  secret: string;
}): Promise<FakeGateway> {
  const { merchantId, secret } = opts;
  const orders = new Map<string, FakeOrder>();
  const refunds = new Map<string, FakeRefund>();
  const nonces = new Map<string, number>(); // nonce -> expiry (unix seconds)
  const requests: ReceivedRequest[] = [];
  const callbacks: DeliveredCallback[] = [];
  let failure: FakeGatewayFailure = null;
  let refundOutcome: RefundStatus = "succeeded";
  let baseUrl = "";

  function header(req: IncomingMessage, name: string): string | undefined {
    const v = req.headers[name];
    return typeof v === "string" ? v : undefined;
  }

  /** The document's checks, in the document's order. */
  function authenticate(req: IncomingMessage, path: string, body: Buffer): void {
    const merchant = header(req, "x-pay-merchant");
    const timestamp = header(req, "x-pay-timestamp");
    const nonce = header(req, "x-pay-nonce");
    const signature = header(req, "x-pay-signature");
    if (
      !merchant ||
      !timestamp ||
      !nonce ||
      !signature ||
      !TIMESTAMP_RE.test(timestamp) ||
      !NONCE_RE.test(nonce)
    ) {
      throw new GatewayHttpError(401, "MISSING_AUTH_HEADER", "missing or malformed auth header");
    }
    if (merchant !== merchantId) {
      throw new GatewayHttpError(401, "MERCHANT_NOT_FOUND", "unknown merchant");
    }
    const now = nowSeconds();
    const ts = Number(timestamp);
    if (Math.abs(now - ts) > TOLERANCE_SECONDS) {
      throw new GatewayHttpError(401, "TIMESTAMP_OUT_OF_RANGE", "timestamp outside 300 s window");
    }
    const expected = Buffer.from(fakeSign(secret, req.method ?? "", path, timestamp, nonce, body));
    const given = Buffer.from(signature.toLowerCase());
    if (
      !SIGNATURE_RE.test(signature) ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      throw new GatewayHttpError(401, "INVALID_SIGNATURE", "signature mismatch");
    }
    for (const [n, exp] of nonces) if (exp < now) nonces.delete(n);
    if (nonces.has(nonce)) throw new GatewayHttpError(401, "NONCE_REPLAYED", "nonce already used");
    nonces.set(nonce, ts + TOLERANCE_SECONDS);
  }

  function parseJson(body: Buffer): Record<string, unknown> {
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      throw invalid("body");
    }
    if (!isRecord(json)) throw invalid("body");
    return json;
  }

  function createOrder(b: Record<string, unknown>): { status: number; body: unknown } {
    if (typeof b.out_trade_no !== "string" || !OUT_TRADE_NO_RE.test(b.out_trade_no)) {
      throw invalid("out_trade_no");
    }
    if (!isAmount(b.amount)) throw invalid("amount");
    if (typeof b.currency !== "string" || !CURRENCY_RE.test(b.currency)) throw invalid("currency");
    if (b.pay_type !== "alipay" && b.pay_type !== "wxpay") throw invalid("pay_type");
    if (typeof b.subject !== "string" || b.subject.length < 1 || b.subject.length > 127) {
      throw invalid("subject");
    }
    if (!isHttpUrl(b.notify_url)) throw invalid("notify_url");
    if (b.return_url !== undefined && !isHttpUrl(b.return_url)) throw invalid("return_url");
    if (
      typeof b.expire_at !== "string" ||
      !RFC3339_UTC_RE.test(b.expire_at) ||
      Number.isNaN(Date.parse(b.expire_at)) ||
      Date.parse(b.expire_at) <= Date.now()
    ) {
      throw invalid("expire_at");
    }

    const existing = orders.get(b.out_trade_no);
    if (existing) {
      const same =
        existing.amount === b.amount &&
        existing.currency === b.currency &&
        existing.pay_type === b.pay_type &&
        existing.subject === b.subject &&
        existing.notify_url === b.notify_url &&
        existing.return_url === b.return_url &&
        existing.expire_at === b.expire_at;
      if (!same) {
        throw new GatewayHttpError(409, "DUPLICATE_OUT_TRADE_NO", "out_trade_no already used");
      }
      if (existing.status === "closed") {
        throw new GatewayHttpError(409, "ORDER_CLOSED", "order closed");
      }
      if (existing.status !== "pending") {
        throw new GatewayHttpError(409, "ORDER_PAID", "order already paid");
      }
      return {
        status: 200,
        body: { trade_no: existing.trade_no, pay_url: existing.pay_url, status: existing.status },
      };
    }

    const tradeNo = `GW${Date.now()}${randomBytes(6).toString("hex")}`;
    const order: FakeOrder = {
      out_trade_no: b.out_trade_no,
      trade_no: tradeNo,
      amount: b.amount,
      currency: b.currency,
      pay_type: b.pay_type,
      subject: b.subject,
      notify_url: b.notify_url,
      ...(b.return_url !== undefined ? { return_url: b.return_url as string } : {}),
      expire_at: b.expire_at,
      pay_url: `${baseUrl}/cashier/${tradeNo}?pay_type=${b.pay_type}`,
      status: "pending",
      paid_at: null,
      refunded_amount: 0,
    };
    orders.set(order.out_trade_no, order);
    return { status: 200, body: { trade_no: tradeNo, pay_url: order.pay_url, status: "pending" } };
  }

  function queryOrder(outTradeNo: string): { status: number; body: unknown } {
    const order = orders.get(outTradeNo);
    if (!order) throw new GatewayHttpError(404, "ORDER_NOT_FOUND", "order not found");
    return {
      status: 200,
      body: {
        out_trade_no: order.out_trade_no,
        trade_no: order.trade_no,
        status: order.status,
        amount: order.amount,
        currency: order.currency,
        ...(order.paid_at ? { paid_at: order.paid_at } : {}),
      },
    };
  }

  /** A refund number used again: the same refund answered again, another one refused. */
  function replayRefund(
    existing: FakeRefund,
    b: Record<string, unknown>,
  ): { status: number; body: unknown } {
    if (
      existing.out_trade_no !== b.out_trade_no ||
      existing.amount !== b.amount ||
      existing.reason !== b.reason
    ) {
      throw new GatewayHttpError(409, "DUPLICATE_OUT_REFUND_NO", "out_refund_no already used");
    }
    return { status: 200, body: { refund_no: existing.refund_no, status: existing.status } };
  }

  function refund(b: Record<string, unknown>): { status: number; body: unknown } {
    if (typeof b.out_trade_no !== "string" || !OUT_TRADE_NO_RE.test(b.out_trade_no)) {
      throw invalid("out_trade_no");
    }
    if (typeof b.out_refund_no !== "string" || !OUT_REFUND_NO_RE.test(b.out_refund_no)) {
      throw invalid("out_refund_no");
    }
    if (!isAmount(b.amount)) throw invalid("amount");
    if (typeof b.reason !== "string" || b.reason.length > 80) throw invalid("reason");

    const existing = refunds.get(b.out_refund_no);
    if (existing) return replayRefund(existing, b);
    const order = orders.get(b.out_trade_no);
    if (!order) throw new GatewayHttpError(404, "ORDER_NOT_FOUND", "order not found");
    if (order.status === "pending" || order.status === "closed") {
      throw new GatewayHttpError(409, "ORDER_NOT_PAID", "order not paid");
    }
    const reserved = [...refunds.values()]
      .filter((r) => r.out_trade_no === order.out_trade_no && r.status !== "failed")
      .reduce((sum, r) => sum + r.amount, 0);
    if (b.amount > order.amount - reserved) {
      throw new GatewayHttpError(422, "REFUND_AMOUNT_EXCEEDED", "amount exceeds refundable");
    }
    const r: FakeRefund = {
      out_trade_no: order.out_trade_no,
      out_refund_no: b.out_refund_no,
      refund_no: `RF${Date.now()}${randomBytes(6).toString("hex")}`,
      amount: b.amount,
      reason: b.reason,
      status: refundOutcome,
    };
    refunds.set(r.out_refund_no, r);
    if (r.status === "succeeded") settle(order, r);
    return { status: 200, body: { refund_no: r.refund_no, status: r.status } };
  }

  function settle(order: FakeOrder, r: FakeRefund): void {
    order.refunded_amount += r.amount;
    if (order.refunded_amount >= order.amount) order.status = "refunded";
  }

  async function route(
    req: IncomingMessage,
    path: string,
    body: Buffer,
  ): Promise<{ status: number; body: unknown }> {
    const { pathname } = new URL(path, "http://127.0.0.1");
    const orderMatch = /^\/v1\/orders\/([^/]+)$/.exec(pathname);
    const known =
      (req.method === "POST" && (pathname === "/v1/orders" || pathname === "/v1/refunds")) ||
      (req.method === "GET" && orderMatch !== null);
    if (!known) throw new GatewayHttpError(404, "NOT_FOUND", "no such endpoint");
    authenticate(req, path, body);
    if (pathname === "/v1/orders") return createOrder(parseJson(body));
    if (pathname === "/v1/refunds") return refund(parseJson(body));
    return queryOrder(decodeURIComponent(orderMatch![1]!));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = req.url ?? "/";
    const entry: ReceivedRequest = {
      method: req.method ?? "",
      path,
      headers: {
        "x-pay-merchant": header(req, "x-pay-merchant"),
        "x-pay-timestamp": header(req, "x-pay-timestamp"),
        "x-pay-nonce": header(req, "x-pay-nonce"),
        "x-pay-signature": header(req, "x-pay-signature"),
        "content-type": header(req, "content-type"),
      },
      body: body.toString("utf8"),
      status: 0,
      responseBody: undefined,
    };
    requests.push(entry);
    if (failure === "hang") return; // never answers; the client's timeout must fire
    if (failure === "http-502") {
      entry.status = 502;
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    }
    let answer: { status: number; body: unknown };
    try {
      answer = await route(req, path, body);
    } catch (err) {
      answer =
        err instanceof GatewayHttpError
          ? { status: err.status, body: { code: err.code, message: err.message } }
          : { status: 500, body: { code: "INTERNAL_ERROR", message: "internal error" } };
    }
    if (failure === "processed-502") {
      entry.status = 502;
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    }
    entry.status = answer.status;
    entry.responseBody = answer.body;
    res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(answer.body));
  }

  async function deliver(
    notifyUrl: string,
    event: Record<string, unknown>,
    opts: DeliverOptions,
  ): Promise<number> {
    const target = new URL(notifyUrl);
    const path = `${target.pathname}${target.search}`;
    const body = JSON.stringify({ ...event, ...opts.patch });
    const timestamp = String(Math.floor((opts.signedAt ?? new Date()).getTime() / 1000));
    const nonce = randomBytes(16).toString("base64url");
    let delivery: CallbackDelivery = {
      url: notifyUrl,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-pay-merchant": merchantId,
        "x-pay-timestamp": timestamp,
        "x-pay-nonce": nonce,
        "x-pay-signature": fakeSign(secret, "POST", path, timestamp, nonce, body),
      },
      body,
    };
    if (opts.mutate) delivery = opts.mutate(delivery) ?? delivery;

    let status = 0;
    let responseBody = "";
    try {
      const res = await fetch(delivery.url, {
        method: "POST",
        headers: delivery.headers,
        body: delivery.body,
        redirect: "manual",
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      responseBody = await res.text();
    } catch {
      status = 0;
    }
    let acknowledged = false;
    try {
      const parsed: unknown = JSON.parse(responseBody);
      acknowledged = status === 200 && isRecord(parsed) && parsed.code === "SUCCESS";
    } catch {
      acknowledged = false;
    }
    callbacks.push({ ...delivery, status, responseBody, acknowledged });
    return status;
  }

  function requireOrder(outTradeNo: string): FakeOrder {
    const order = orders.get(outTradeNo);
    if (!order) throw new Error(`fake gateway: no order ${outTradeNo}`);
    return order;
  }

  function orderEvent(order: FakeOrder, type: CallbackType): Record<string, unknown> {
    return {
      event_id: `evt_${randomBytes(12).toString("hex")}`,
      type,
      out_trade_no: order.out_trade_no,
      trade_no: order.trade_no,
      amount: order.amount,
      currency: order.currency,
      paid_at: order.paid_at,
    };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    merchantId,
    secret,
    requests,
    callbacks,
    getOrder: (no) => orders.get(no),
    getRefund: (no) => refunds.get(no),

    async pay(outTradeNo) {
      const order = requireOrder(outTradeNo);
      if (order.status !== "pending") throw new Error(`fake gateway: ${outTradeNo} not pending`);
      order.status = "paid";
      order.paid_at = rfc3339(new Date());
      order.lastEvent = orderEvent(order, "payment.succeeded");
      return deliver(order.notify_url, order.lastEvent, {});
    },

    async closeOrder(outTradeNo) {
      const order = requireOrder(outTradeNo);
      if (order.status !== "pending") throw new Error(`fake gateway: ${outTradeNo} not pending`);
      order.status = "closed";
      order.lastEvent = orderEvent(order, "payment.closed");
      return deliver(order.notify_url, order.lastEvent, {});
    },

    async completeRefund(outRefundNo) {
      const r = refunds.get(outRefundNo);
      if (r?.status !== "pending") throw new Error(`fake gateway: ${outRefundNo} not pending`);
      const order = requireOrder(r.out_trade_no);
      r.status = "succeeded";
      settle(order, r);
      order.lastEvent = {
        ...orderEvent(order, "refund.succeeded"),
        amount: r.amount,
        out_refund_no: r.out_refund_no,
        refund_no: r.refund_no,
      };
      return deliver(order.notify_url, order.lastEvent, {});
    },

    async deliverCallback(outTradeNo, deliverOpts = {}) {
      const order = requireOrder(outTradeNo);
      if (!order.lastEvent) throw new Error(`fake gateway: no event yet for ${outTradeNo}`);
      const statuses: number[] = [];
      for (let i = 0; i < (deliverOpts.times ?? 1); i++) {
        statuses.push(await deliver(order.notify_url, order.lastEvent, deliverOpts));
      }
      return statuses;
    },

    setRefundOutcome(outcome) {
      refundOutcome = outcome;
    },

    fail(mode) {
      failure = mode;
    },

    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // keep-alive and hung requests would hold close() open
      });
    },
  };
}
