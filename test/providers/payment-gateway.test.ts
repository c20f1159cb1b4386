import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importHmacKey } from "../../src/lib/crypto";
import {
  CallbackVerificationError,
  type CreateOrderRequest,
  canonicalString,
  createGatewayClient,
  type GatewayCallback,
  type PaymentGatewayClient,
  PaymentGatewayError,
  PaymentGatewayUnavailableError,
  signGatewayCallback,
  signGatewayRequest,
  verifyGatewayCallback,
} from "../../src/providers/payment/gateway";
import { type FakeGateway, startFakeGateway } from "../fakes/payment-gateway";

const MERCHANT_ID = "M100001";
const SECRET = "test_signing_secret_0123456789abcdef";
const CALLBACK_PATH = "/api/v1/payments/callback?src=gw";

/** The document's signature, computed here with node:crypto and nothing from src/. */
function independentSignature(
  secret: string,
  method: string,
  path: string,
  timestamp: string,
  nonce: string,
  body: string,
): string {
  const bodyHash = createHash("sha256").update(body, "utf8").digest("hex");
  return createHmac("sha256", secret)
    .update([method, path, timestamp, nonce, bodyHash].join("\n"))
    .digest("hex");
}

/** Awaits a rejection and returns the error, asserting no secret leaked into it. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  const err = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  const e = err as Error;
  for (const text of [e.message, JSON.stringify(e), String(e.stack), String(e.cause ?? "")]) {
    expect(text).not.toContain(SECRET);
  }
  return err;
}

async function verifyRejection(promise: Promise<unknown>): Promise<string> {
  const err = await rejection(promise);
  expect(err).toBeInstanceOf(CallbackVerificationError);
  return (err as CallbackVerificationError).reason;
}

function memoryNonceStore() {
  const seen = new Map<string, Date>();
  const fn = async (nonce: string, expiresAt: Date): Promise<boolean> => {
    if (seen.has(nonce)) return true;
    seen.set(nonce, expiresAt);
    return false;
  };
  return Object.assign(fn, { seen });
}

// ---------------------------------------------------------------------------------------------
// A callback receiver: what the app's callback route will do, minus the database.
// ---------------------------------------------------------------------------------------------

interface Received {
  event?: GatewayCallback;
  reason?: string;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

async function startReceiver(signingKey: CryptoKey): Promise<Receiver> {
  const received: Received[] = [];
  const seenNonce = memoryNonceStore();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const rawBody = await readBody(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string") headers.set(k, v);
      try {
        const event = await verifyGatewayCallback({
          signingKey,
          merchantId: MERCHANT_ID,
          method: req.method ?? "",
          path: req.url ?? "",
          headers,
          rawBody,
          now: new Date(),
          seenNonce,
        });
        received.push({ event });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "SUCCESS" }));
      } catch (err) {
        received.push({ reason: err instanceof CallbackVerificationError ? err.reason : "error" });
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "FAIL", message: "verification failed" }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------

let fake: FakeGateway;
let receiver: Receiver;
let key: CryptoKey;
let client: PaymentGatewayClient;
let seq = 0;

function orderNo(): string {
  seq += 1;
  return `T${Date.now()}${String(seq).padStart(4, "0")}`;
}

function orderRequest(overrides: Partial<CreateOrderRequest> = {}): CreateOrderRequest {
  return {
    out_trade_no: orderNo(),
    amount: 9900,
    currency: "CNY",
    pay_type: "wxpay",
    subject: "Pro plan, 1 month",
    notify_url: `${receiver.url}${CALLBACK_PATH}`,
    return_url: "https://app.example.com/orders/done",
    expire_at: new Date(Date.now() + 30 * 60_000).toISOString(),
    ...overrides,
  };
}

beforeAll(async () => {
  key = await importHmacKey(SECRET);
  fake = await startFakeGateway({ merchantId: MERCHANT_ID, secret: SECRET });
  receiver = await startReceiver(key);
  client = createGatewayClient({
    baseUrl: fake.url,
    merchantId: MERCHANT_ID,
    signingKey: key,
    timeoutMs: 2000,
  });
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

afterEach(() => {
  fake.fail(null);
  fake.setRefundOutcome("succeeded");
});

describe("signing", () => {
  it("matches the worked example in docs/payment-gateway.md", async () => {
    const body =
      '{"out_trade_no":"T202601010001","amount":9900,"currency":"CNY","pay_type":"wxpay",' +
      '"subject":"Pro plan, 1 month","notify_url":"https://api.example.com/api/v1/payments/callback",' +
      '"return_url":"https://app.example.com/orders/T202601010001","expire_at":"2026-01-01T00:30:00Z"}';
    const input = {
      method: "POST",
      path: "/v1/orders",
      timestamp: 1767225600,
      nonce: "q3Zs7b2XhUe9LcVt1fKmNw",
      body,
    };
    expect(await canonicalString(input)).toBe(
      "POST\n/v1/orders\n1767225600\nq3Zs7b2XhUe9LcVt1fKmNw\n" +
        "53a154a320cfa0857f8bfc1da73ccbbe292f9b5facd06b63c2fb8bea401833cd",
    );
    expect(await signGatewayRequest(key, input)).toBe(
      "698707794bcef6ed2419a4aa65ee3f621651f653222de98f41c5a66e1dd7f984",
    );
    const get = { method: "get", path: "/v1/orders/T202601010001", timestamp: 1767225600 };
    expect(await signGatewayRequest(key, { ...get, nonce: input.nonce, body: "" })).toBe(
      "fe879b608dd4171a03f9441cbb7d343a015ea84645fe24483fa2baacf9fb41c4",
    );
  });

  it("agrees with node:crypto on arbitrary input, including non-ASCII bodies", async () => {
    const input = {
      method: "POST",
      path: "/v1/refunds?lang=zh-CN",
      timestamp: "1700000000",
      nonce: "abcdefghijklmnop_-0123",
      body: '{"reason":"客户取消 ✓"}',
    };
    expect(await signGatewayRequest(key, input)).toBe(
      independentSignature(SECRET, "POST", input.path, input.timestamp, input.nonce, input.body),
    );
  });
});

describe("createGatewayClient against the fake gateway", () => {
  it("creates, queries, pays and refunds an order, every request signed as documented", async () => {
    const req = orderRequest();
    const created = await client.createOrder(req);
    expect(created.status).toBe("pending");
    expect(created.trade_no).toMatch(/^GW/);
    expect(created.pay_url).toContain(created.trade_no);

    const sent = fake.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/orders");
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body)).toEqual(req);
    expect(sent.headers["content-type"]).toMatch(/^application\/json/);
    expect(sent.headers["x-pay-merchant"]).toBe(MERCHANT_ID);
    expect(sent.headers["x-pay-nonce"]!.length).toBeGreaterThanOrEqual(16);
    const ts = Number(sent.headers["x-pay-timestamp"]);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5);
    expect(sent.headers["x-pay-signature"]).toBe(
      independentSignature(
        SECRET,
        "POST",
        "/v1/orders",
        sent.headers["x-pay-timestamp"]!,
        sent.headers["x-pay-nonce"]!,
        sent.body,
      ),
    );

    expect(await client.queryOrder(req.out_trade_no)).toEqual({
      out_trade_no: req.out_trade_no,
      trade_no: created.trade_no,
      status: "pending",
      amount: 9900,
      currency: "CNY",
    });
    const get = fake.requests.at(-1)!;
    expect(get.method).toBe("GET");
    expect(get.path).toBe(`/v1/orders/${req.out_trade_no}`);
    expect(get.headers["x-pay-signature"]).toBe(
      independentSignature(
        SECRET,
        "GET",
        get.path,
        get.headers["x-pay-timestamp"]!,
        get.headers["x-pay-nonce"]!,
        "",
      ),
    );
    expect(get.headers["x-pay-nonce"]).not.toBe(sent.headers["x-pay-nonce"]);

    expect(await fake.pay(req.out_trade_no)).toBe(200);
    const paid = await client.queryOrder(req.out_trade_no);
    expect(paid.status).toBe("paid");
    expect(paid.paid_at).toBe(fake.getOrder(req.out_trade_no)!.paid_at);

    const partial = await client.refund({
      out_trade_no: req.out_trade_no,
      out_refund_no: `${req.out_trade_no}R1`,
      amount: 4000,
      reason: "partial",
    });
    expect(partial.status).toBe("succeeded");
    expect((await client.queryOrder(req.out_trade_no)).status).toBe("paid");

    const rest = await client.refund({
      out_trade_no: req.out_trade_no,
      out_refund_no: `${req.out_trade_no}R2`,
      amount: 5900,
      reason: "rest",
    });
    expect(rest.status).toBe("succeeded");
    expect(rest.refund_no).not.toBe(partial.refund_no);
    expect((await client.queryOrder(req.out_trade_no)).status).toBe("refunded");
  });

  it("keeps a base URL path prefix in the request and in the signed path", async () => {
    const seen: string[] = [];
    const prefixed = createGatewayClient({
      baseUrl: `${fake.url}/gw/`,
      merchantId: MERCHANT_ID,
      signingKey: key,
      fetch: async (input, init) => {
        seen.push(String(input));
        const url = new URL(String(input));
        const headers = new Headers(init?.headers);
        const expected = independentSignature(
          SECRET,
          "GET",
          url.pathname,
          headers.get("x-pay-timestamp")!,
          headers.get("x-pay-nonce")!,
          "",
        );
        expect(headers.get("x-pay-signature")).toBe(expected);
        return new Response(JSON.stringify({ code: "ORDER_NOT_FOUND", message: "x" }), {
          status: 404,
        });
      },
    });
    await rejection(prefixed.queryOrder("T0000001"));
    expect(seen).toEqual([`${fake.url}/gw/v1/orders/T0000001`]);
  });

  it("is idempotent per out_trade_no and refuses a reused number with other fields", async () => {
    const req = orderRequest();
    const first = await client.createOrder(req);
    expect(await client.createOrder(req)).toEqual(first);
    const err = await rejection(client.createOrder({ ...req, amount: 1 }));
    expect(err).toBeInstanceOf(PaymentGatewayError);
    expect(err).toMatchObject({ code: "DUPLICATE_OUT_TRADE_NO", status: 409 });
  });

  it("maps business refusals to PaymentGatewayError with a code and a user-safe message", async () => {
    const missing = await rejection(client.queryOrder("T404404404"));
    expect(missing).toBeInstanceOf(PaymentGatewayError);
    expect(missing).toMatchObject({
      code: "ORDER_NOT_FOUND",
      status: 404,
      message: "The payment order was not found",
    });

    const req = orderRequest();
    await client.createOrder(req);
    const unpaid = await rejection(
      client.refund({
        out_trade_no: req.out_trade_no,
        out_refund_no: `${req.out_trade_no}R1`,
        amount: 100,
        reason: "",
      }),
    );
    expect(unpaid).toMatchObject({ code: "ORDER_NOT_PAID", status: 409 });

    await fake.pay(req.out_trade_no);
    const tooMuch = await rejection(
      client.refund({
        out_trade_no: req.out_trade_no,
        out_refund_no: `${req.out_trade_no}R2`,
        amount: 9901,
        reason: "",
      }),
    );
    expect(tooMuch).toBeInstanceOf(PaymentGatewayError);
    expect(tooMuch).toMatchObject({ code: "REFUND_AMOUNT_EXCEEDED", status: 422 });
  });

  it("reports a pending refund and its later refund.succeeded callback", async () => {
    const req = orderRequest();
    await client.createOrder(req);
    await fake.pay(req.out_trade_no);
    fake.setRefundOutcome("pending");
    const r = await client.refund({
      out_trade_no: req.out_trade_no,
      out_refund_no: `${req.out_trade_no}R1`,
      amount: 9900,
      reason: "cancelled",
    });
    expect(r.status).toBe("pending");
    expect((await client.queryOrder(req.out_trade_no)).status).toBe("paid");
    expect(await fake.completeRefund(`${req.out_trade_no}R1`)).toBe(200);
    expect(receiver.received.at(-1)!.event).toMatchObject({
      type: "refund.succeeded",
      out_trade_no: req.out_trade_no,
      out_refund_no: `${req.out_trade_no}R1`,
      refund_no: r.refund_no,
      amount: 9900,
    });
    expect((await client.queryOrder(req.out_trade_no)).status).toBe("refunded");
  });

  it("validates input before sending anything", async () => {
    const before = fake.requests.length;
    for (const bad of [
      orderRequest({ amount: 99.5 }),
      orderRequest({ amount: 0 }),
      orderRequest({ pay_type: "paypal" as never }),
      orderRequest({ notify_url: "javascript:alert(1)" }),
      orderRequest({ out_trade_no: "../../v1/refunds" }),
    ]) {
      const err = await rejection(client.createOrder(bad));
      expect(err).toBeInstanceOf(PaymentGatewayError);
      expect(err).toMatchObject({ code: "INVALID_REQUEST" });
    }
    await rejection(client.queryOrder("a/b?c"));
    expect(fake.requests.length).toBe(before);
  });

  it("treats a wrong key as a rejected configuration, never leaking the secret", async () => {
    const wrong = createGatewayClient({
      baseUrl: fake.url,
      merchantId: MERCHANT_ID,
      signingKey: await importHmacKey(`${SECRET}-wrong`),
    });
    const err = await rejection(wrong.createOrder(orderRequest()));
    expect(err).toBeInstanceOf(PaymentGatewayUnavailableError);
    expect(err).toMatchObject({ reason: "rejected", status: 401, code: "INVALID_SIGNATURE" });
    expect(fake.requests.at(-1)!.responseBody).toEqual({
      code: "INVALID_SIGNATURE",
      message: expect.any(String),
    });
  });

  it.each([
    ["301 s old", -301_000],
    ["330 s ahead", 330_000],
  ])("is refused by the gateway with a clock %s", async (_label, skewMs) => {
    const skewed = createGatewayClient({
      baseUrl: fake.url,
      merchantId: MERCHANT_ID,
      signingKey: key,
      clock: () => new Date(Date.now() + skewMs),
    });
    const err = await rejection(skewed.queryOrder("T0000001"));
    expect(err).toMatchObject({ reason: "rejected", code: "TIMESTAMP_OUT_OF_RANGE" });
  });

  it("is refused on an unknown merchant", async () => {
    const other = createGatewayClient({ baseUrl: fake.url, merchantId: "M999", signingKey: key });
    const err = await rejection(other.queryOrder("T0000001"));
    expect(err).toMatchObject({ reason: "rejected", code: "MERCHANT_NOT_FOUND" });
  });

  it("the gateway refuses a replayed request and a tampered body", async () => {
    const captured: { url: string; init: RequestInit }[] = [];
    const recording = createGatewayClient({
      baseUrl: fake.url,
      merchantId: MERCHANT_ID,
      signingKey: key,
      fetch: (input, init) => {
        captured.push({ url: String(input), init: init! });
        return fetch(input, init);
      },
    });
    const req = orderRequest();
    await recording.createOrder(req);
    const { url, init } = captured[0]!;

    const replay = await fetch(url, { method: "POST", headers: init.headers, body: init.body });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ code: "NONCE_REPLAYED" });

    const headers = new Headers(init.headers);
    headers.set("x-pay-nonce", "fresh-nonce-0123456789");
    const tampered = await fetch(url, {
      method: "POST",
      headers,
      body: String(init.body).replace('"amount":9900', '"amount":1'),
    });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ code: "INVALID_SIGNATURE" });
    expect(fake.getOrder(req.out_trade_no)!.amount).toBe(9900);
  });

  it("maps a 502 to PaymentGatewayUnavailableError", async () => {
    fake.fail("http-502");
    const err = await rejection(client.createOrder(orderRequest()));
    expect(err).toBeInstanceOf(PaymentGatewayUnavailableError);
    expect(err).toMatchObject({ reason: "http_status", status: 502 });
  });

  it("maps a hanging gateway to a timeout", async () => {
    fake.fail("hang");
    const quick = createGatewayClient({
      baseUrl: fake.url,
      merchantId: MERCHANT_ID,
      signingKey: key,
      timeoutMs: 300,
    });
    const started = Date.now();
    const err = await rejection(quick.queryOrder("T0000001"));
    expect(err).toBeInstanceOf(PaymentGatewayUnavailableError);
    expect(err).toMatchObject({ reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("maps an unreachable gateway and an unusable answer to PaymentGatewayUnavailableError", async () => {
    const down = createGatewayClient({
      baseUrl: "http://127.0.0.1:1",
      merchantId: MERCHANT_ID,
      signingKey: key,
    });
    expect(await rejection(down.queryOrder("T0000001"))).toMatchObject({ reason: "network" });

    const answers = [
      new Response("<html>maintenance</html>", { status: 200 }),
      new Response(JSON.stringify({ trade_no: "x" }), { status: 200 }),
      new Response("<html>not found</html>", { status: 404 }),
      new Response(JSON.stringify({ code: "RATE_LIMITED", message: "slow down" }), { status: 429 }),
    ];
    const reasons: string[] = [];
    for (const answer of answers) {
      const odd = createGatewayClient({
        baseUrl: fake.url,
        merchantId: MERCHANT_ID,
        signingKey: key,
        fetch: async () => answer,
      });
      const err = await rejection(odd.createOrder(orderRequest()));
      expect(err).toBeInstanceOf(PaymentGatewayUnavailableError);
      reasons.push((err as PaymentGatewayUnavailableError).reason);
    }
    expect(reasons).toEqual(["bad_response", "bad_response", "bad_response", "rate_limited"]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("verifyGatewayCallback", () => {
  const NOW = new Date("2026-01-01T00:00:00Z");
  const NOW_S = NOW.getTime() / 1000;
  const event = {
    event_id: "evt_0001",
    type: "payment.succeeded",
    out_trade_no: "T202601010001",
    trade_no: "GW0001",
    amount: 9900,
    currency: "CNY",
    paid_at: "2026-01-01T08:00:00+08:00",
  };

  /** A delivery signed independently of src/, as the gateway would send it. */
  function delivery(
    overrides: {
      body?: string;
      timestamp?: number;
      nonce?: string;
      secret?: string;
      merchant?: string;
      signedPath?: string;
    } = {},
  ) {
    const body = overrides.body ?? JSON.stringify(event);
    const timestamp = String(overrides.timestamp ?? NOW_S);
    const nonce = overrides.nonce ?? `n${Math.random().toString(36).slice(2).padEnd(20, "x")}`;
    const signature = independentSignature(
      overrides.secret ?? SECRET,
      "POST",
      overrides.signedPath ?? CALLBACK_PATH,
      timestamp,
      nonce,
      body,
    );
    return {
      headers: new Headers({
        "X-Pay-Merchant": overrides.merchant ?? MERCHANT_ID,
        "X-Pay-Timestamp": timestamp,
        "X-Pay-Nonce": nonce,
        "X-Pay-Signature": signature,
      }),
      rawBody: body,
    };
  }

  let seenNonce: ReturnType<typeof memoryNonceStore>;
  beforeEach(() => {
    seenNonce = memoryNonceStore();
  });

  function verify(d: { headers: Headers; rawBody: string }, now = NOW) {
    return verifyGatewayCallback({
      signingKey: key,
      merchantId: MERCHANT_ID,
      method: "POST",
      path: CALLBACK_PATH,
      headers: d.headers,
      rawBody: d.rawBody,
      now,
      seenNonce,
    });
  }

  it("accepts a correctly signed callback and returns the parsed event", async () => {
    const d = delivery();
    expect(await verify(d)).toEqual(event);
    const nonce = d.headers.get("X-Pay-Nonce")!;
    expect(seenNonce.seen.get(nonce)).toEqual(new Date((NOW_S + 300) * 1000));
  });

  it("rejects a tampered body", async () => {
    const d = delivery();
    d.rawBody = d.rawBody.replace('"amount":9900', '"amount":1');
    expect(await verifyRejection(verify(d))).toBe("bad_signature");
  });

  it("rejects a body changed only in whitespace (the raw body is what is signed)", async () => {
    const d = delivery();
    d.rawBody = `${d.rawBody} `;
    expect(await verifyRejection(verify(d))).toBe("bad_signature");
  });

  it("rejects a signature made with another key", async () => {
    expect(await verifyRejection(verify(delivery({ secret: `${SECRET}x` })))).toBe("bad_signature");
  });

  it("rejects a signature made for another path", async () => {
    const d = delivery({ signedPath: "/api/v1/payments/callback" });
    expect(await verifyRejection(verify(d))).toBe("bad_signature");
  });

  it("rejects a malformed signature header", async () => {
    const d = delivery();
    d.headers.set("X-Pay-Signature", "zz".repeat(32));
    expect(await verifyRejection(verify(d))).toBe("bad_signature");
    d.headers.set("X-Pay-Signature", "ab");
    expect(await verifyRejection(verify(d))).toBe("bad_signature");
  });

  it("rejects a timestamp 301 s old and accepts one exactly 300 s old", async () => {
    expect(await verifyRejection(verify(delivery({ timestamp: NOW_S - 301 })))).toBe(
      "stale_timestamp",
    );
    expect(await verify(delivery({ timestamp: NOW_S - 300 }))).toEqual(event);
  });

  it("rejects a timestamp 301 s ahead and accepts one exactly 300 s ahead", async () => {
    expect(await verifyRejection(verify(delivery({ timestamp: NOW_S + 301 })))).toBe(
      "future_timestamp",
    );
    expect(await verify(delivery({ timestamp: NOW_S + 300 }))).toEqual(event);
  });

  it("honours a custom tolerance", async () => {
    const d = delivery({ timestamp: NOW_S - 61 });
    const err = verifyGatewayCallback({
      signingKey: key,
      merchantId: MERCHANT_ID,
      method: "POST",
      path: CALLBACK_PATH,
      headers: d.headers,
      rawBody: d.rawBody,
      now: NOW,
      toleranceSeconds: 60,
      seenNonce,
    });
    expect(await verifyRejection(err)).toBe("stale_timestamp");
  });

  it("rejects a replayed nonce", async () => {
    const d = delivery();
    await verify(d);
    expect(await verifyRejection(verify(d))).toBe("replayed_nonce");
  });

  it("does not burn a nonce on a request whose signature fails", async () => {
    const nonce = "attacker-guessed-nonce-01";
    expect(await verifyRejection(verify(delivery({ nonce, secret: "guess" })))).toBe(
      "bad_signature",
    );
    expect(seenNonce.seen.size).toBe(0);
    expect(await verify(delivery({ nonce }))).toEqual(event);
  });

  it.each(["X-Pay-Merchant", "X-Pay-Timestamp", "X-Pay-Nonce", "X-Pay-Signature"])(
    "rejects a delivery without %s",
    async (name) => {
      const d = delivery();
      d.headers.delete(name);
      expect(await verifyRejection(verify(d))).toBe("missing_header");
    },
  );

  it("rejects malformed timestamp and nonce headers as missing_header", async () => {
    for (const [name, value] of [
      ["X-Pay-Timestamp", "2026-01-01T00:00:00Z"],
      ["X-Pay-Timestamp", "0"],
      ["X-Pay-Nonce", "short"],
      ["X-Pay-Nonce", "has spaces in the nonce!"],
    ] as const) {
      const d = delivery();
      d.headers.set(name, value);
      expect(await verifyRejection(verify(d))).toBe("missing_header");
    }
  });

  it("rejects another merchant's callback", async () => {
    expect(await verifyRejection(verify(delivery({ merchant: "M100002" })))).toBe("bad_merchant");
  });

  it("verifies before parsing: an unsigned garbage body is bad_signature, not malformed_body", async () => {
    const d = delivery();
    d.rawBody = "{not json";
    expect(await verifyRejection(verify(d))).toBe("bad_signature");
  });

  it("rejects a correctly signed body that is not a valid event", async () => {
    for (const body of [
      "{not json",
      JSON.stringify({ ...event, type: "payment.refunded" }),
      JSON.stringify({ ...event, amount: "9900" }),
      JSON.stringify({ ...event, paid_at: undefined }),
      JSON.stringify({ ...event, type: "refund.succeeded" }),
    ]) {
      expect(await verifyRejection(verify(delivery({ body })))).toBe("malformed_body");
    }
  });

  it("accepts what signGatewayCallback produces (the sandbox's path)", async () => {
    const closed: GatewayCallback = {
      event_id: "evt_closed",
      type: "payment.closed",
      out_trade_no: "T202601010002",
      trade_no: "GW0002",
      amount: 100,
      currency: "CNY",
      paid_at: null,
    };
    const signed = await signGatewayCallback({
      signingKey: key,
      merchantId: MERCHANT_ID,
      path: CALLBACK_PATH,
      event: closed,
      now: NOW,
    });
    expect(signed.method).toBe("POST");
    const headers = new Headers(signed.headers);
    expect(headers.get("X-Pay-Signature")).toBe(
      independentSignature(
        SECRET,
        "POST",
        CALLBACK_PATH,
        String(NOW_S),
        headers.get("X-Pay-Nonce")!,
        signed.body,
      ),
    );
    expect(await verify({ headers, rawBody: signed.body })).toEqual(closed);
  });
});

describe("callbacks from the fake gateway", () => {
  it("pay() delivers a payment.succeeded that verifyGatewayCallback accepts", async () => {
    const req = orderRequest({ pay_type: "alipay", amount: 29_900 });
    const created = await client.createOrder(req);
    const before = receiver.received.length;
    expect(await fake.pay(req.out_trade_no)).toBe(200);
    expect(receiver.received.length).toBe(before + 1);
    const got = receiver.received.at(-1)!;
    expect(got.reason).toBeUndefined();
    expect(got.event).toMatchObject({
      type: "payment.succeeded",
      out_trade_no: req.out_trade_no,
      trade_no: created.trade_no,
      amount: 29_900,
      currency: "CNY",
      paid_at: fake.getOrder(req.out_trade_no)!.paid_at,
    });
    expect(fake.callbacks.at(-1)!.acknowledged).toBe(true);
  });

  it("redeliveries are freshly signed, keep the event_id, and all verify", async () => {
    const req = orderRequest();
    await client.createOrder(req);
    await fake.pay(req.out_trade_no);
    expect(await fake.deliverCallback(req.out_trade_no, { times: 3 })).toEqual([200, 200, 200]);
    const last4 = fake.callbacks.slice(-4);
    expect(new Set(last4.map((c) => c.headers["x-pay-nonce"])).size).toBe(4);
    const ids = receiver.received.slice(-4).map((r) => r.event?.event_id);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^evt_/);
  });

  it("a tampered, replayed or stale delivery is refused, so the gateway would retry", async () => {
    const req = orderRequest();
    await client.createOrder(req);
    await fake.pay(req.out_trade_no);
    const original = fake.callbacks.at(-1)!;

    const tampered = await fake.deliverCallback(req.out_trade_no, {
      mutate: (d) => ({ ...d, body: d.body.replace('"amount":9900', '"amount":99') }),
    });
    expect(tampered).toEqual([401]);
    expect(receiver.received.at(-1)!.reason).toBe("bad_signature");

    const replayed = await fake.deliverCallback(req.out_trade_no, {
      mutate: () => ({ url: original.url, headers: original.headers, body: original.body }),
    });
    expect(replayed).toEqual([401]);
    expect(receiver.received.at(-1)!.reason).toBe("replayed_nonce");

    const stale = await fake.deliverCallback(req.out_trade_no, {
      signedAt: new Date(Date.now() - 301_000),
    });
    expect(stale).toEqual([401]);
    expect(receiver.received.at(-1)!.reason).toBe("stale_timestamp");
    expect(fake.callbacks.at(-1)!.acknowledged).toBe(false);
  });

  it("a validly signed event with a wrong amount verifies: checking it is the caller's job", async () => {
    const req = orderRequest();
    await client.createOrder(req);
    await fake.pay(req.out_trade_no);
    expect(await fake.deliverCallback(req.out_trade_no, { patch: { amount: 1 } })).toEqual([200]);
    expect(receiver.received.at(-1)!.event!.amount).toBe(1);
  });

  it("closeOrder() delivers a payment.closed without paid_at", async () => {
    const req = orderRequest();
    await client.createOrder(req);
    expect(await fake.closeOrder(req.out_trade_no)).toBe(200);
    expect(receiver.received.at(-1)!.event).toMatchObject({
      type: "payment.closed",
      out_trade_no: req.out_trade_no,
      paid_at: null,
    });
    expect((await client.queryOrder(req.out_trade_no)).status).toBe("closed");
    const again = await rejection(client.createOrder(req));
    expect(again).toMatchObject({ code: "ORDER_CLOSED" });
  });
});
