import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  clampSessionExpiry,
  createStripeProvider,
  type StripeProvider,
  StripeProviderError,
  StripeUnavailableError,
  StripeWebhookError,
  type StripeWebhookErrorReason,
} from "../../src/providers/payment/stripe";
import { type FakeStripe, startFakeStripe } from "../fakes/stripe";

const SECRET_KEY = "sk_test_51ProviderSuiteSecretKey0123456789";
const WEBHOOK_SECRET = "whsec_ProviderSuiteWebhookSecret0123456789";

let fake: FakeStripe;
let stripe: StripeProvider;
let seq = 0;

/** A fresh order number per test, so idempotency keys never collide across tests. */
function orderNo(): string {
  seq += 1;
  return `ORD${Date.now()}${String(seq).padStart(4, "0")}`;
}

function session(no: string, overrides: Record<string, unknown> = {}) {
  return {
    orderNo: no,
    amount: 1999,
    currency: "USD",
    description: "Pro plan, monthly",
    successUrl: "https://app.example.com/pay/success?session_id={CHECKOUT_SESSION_ID}",
    cancelUrl: "https://app.example.com/pay/cancel",
    customerEmail: "buyer@example.com",
    expiresAt: new Date(Date.now() + 2 * 3600_000),
    ...overrides,
  };
}

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  stripe = createStripeProvider({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: fake.url,
    timeoutMs: 2000,
  });
});

afterAll(async () => {
  await fake.close();
});

afterEach(() => {
  fake.fail(null);
});

/** Awaits a rejection and returns the error, asserting no secret leaked into it. */
async function rejection(promise: Promise<unknown>, secrets: string[] = []): Promise<Error> {
  const err = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  const e = err as Error;
  for (const secret of [SECRET_KEY, WEBHOOK_SECRET, ...secrets]) {
    expect(e.message).not.toContain(secret);
    expect(JSON.stringify(e)).not.toContain(secret);
    expect(String(e.stack)).not.toContain(secret);
    expect(String(e.cause ?? "")).not.toContain(secret);
  }
  return e;
}

async function webhookRejection(
  promise: Promise<unknown>,
  reason: StripeWebhookErrorReason,
): Promise<void> {
  const err = await rejection(promise);
  expect(err).toBeInstanceOf(StripeWebhookError);
  expect((err as StripeWebhookError).reason).toBe(reason);
}

describe("createCheckoutSession", () => {
  it("creates a payment-mode session with one price_data line and the order's references", async () => {
    const no = orderNo();
    const expiresAt = new Date(Date.now() + 2 * 3600_000);
    const before = fake.requests.length;
    const created = await stripe.createCheckoutSession(session(no, { expiresAt }));

    expect(created.id).toMatch(/^cs_test_/);
    expect(created.url).toBe(`https://checkout.stripe.com/c/pay/${created.id}`);
    expect(fake.requests.length).toBe(before + 1);
    const req = fake.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/checkout/sessions");
    expect(req.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(req.headers["idempotency-key"]).toBe(`checkout-session:${no}`);
    expect(req.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    expect(req.form).toEqual({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1999",
      "line_items[0][price_data][product_data][name]": "Pro plan, monthly",
      client_reference_id: no,
      "metadata[order_no]": no,
      "payment_intent_data[metadata][order_no]": no,
      success_url: "https://app.example.com/pay/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://app.example.com/pay/cancel",
      customer_email: "buyer@example.com",
      expires_at: String(Math.floor(expiresAt.getTime() / 1000)),
    });
    const stored = fake.sessions.get(created.id)!;
    expect(stored.amount_total).toBe(1999);
    expect(stored.client_reference_id).toBe(no);
  });

  it("omits customer_email when none is given", async () => {
    await stripe.createCheckoutSession(session(orderNo(), { customerEmail: undefined }));
    expect(fake.requests.at(-1)!.form).not.toHaveProperty("customer_email");
  });

  it("clamps expires_at up to 30 minutes (plus margin) ahead", async () => {
    const t0 = Math.floor(Date.now() / 1000);
    await stripe.createCheckoutSession(
      session(orderNo(), { expiresAt: new Date(Date.now() + 5 * 60_000) }),
    );
    const t1 = Math.ceil(Date.now() / 1000);
    const sent = Number(fake.requests.at(-1)!.form.expires_at);
    expect(sent).toBeGreaterThanOrEqual(t0 + 30 * 60);
    expect(sent).toBeLessThanOrEqual(t1 + 32 * 60);
  });

  it("clamps expires_at down to 24 hours (minus margin) ahead, and the fake accepts it", async () => {
    const t0 = Math.floor(Date.now() / 1000);
    const created = await stripe.createCheckoutSession(
      session(orderNo(), { expiresAt: new Date(Date.now() + 72 * 3600_000) }),
    );
    const t1 = Math.ceil(Date.now() / 1000);
    const sent = Number(fake.requests.at(-1)!.form.expires_at);
    expect(sent).toBeLessThanOrEqual(t1 + 24 * 3600);
    expect(sent).toBeGreaterThanOrEqual(t0 + 23 * 3600);
    expect(fake.sessions.get(created.id)!.expires_at).toBe(sent);
  });

  it("clampSessionExpiry keeps in-range values and bounds the rest", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(clampSessionExpiry(new Date(now + 3600_000), now)).toBe((now + 3600_000) / 1000);
    expect(clampSessionExpiry(new Date(now), now)).toBe((now + 31 * 60_000) / 1000);
    expect(clampSessionExpiry(new Date(now - 3600_000), now)).toBe((now + 31 * 60_000) / 1000);
    expect(clampSessionExpiry(new Date(now + 30 * 3600_000), now)).toBe(
      (now + 24 * 3600_000 - 60_000) / 1000,
    );
    expect(() => clampSessionExpiry(new Date(Number.NaN), now)).toThrow(RangeError);
  });

  it("the same order twice returns the same session (Idempotency-Key replay)", async () => {
    const input = session(orderNo());
    const first = await stripe.createCheckoutSession(input);
    const count = fake.sessions.size;
    const second = await stripe.createCheckoutSession(input);
    expect(second).toEqual(first);
    expect(fake.sessions.size).toBe(count);
    expect(fake.requests.at(-1)!.headers["idempotency-key"]).toBe(
      fake.requests.at(-2)!.headers["idempotency-key"],
    );

    const other = await stripe.createCheckoutSession(session(orderNo()));
    expect(other.id).not.toBe(first.id);
    expect(fake.sessions.size).toBe(count + 1);
  });

  it("the same order with different parameters is an idempotency conflict, not a second session", async () => {
    const no = orderNo();
    await stripe.createCheckoutSession(session(no));
    const count = fake.sessions.size;
    const err = await rejection(stripe.createCheckoutSession(session(no, { amount: 2999 })));
    expect(err).toBeInstanceOf(StripeProviderError);
    expect((err as StripeProviderError).kind).toBe("idempotency_conflict");
    expect(fake.sessions.size).toBe(count);
  });

  it("rejects invalid input before calling Stripe", async () => {
    const before = fake.requests.length;
    await expect(stripe.createCheckoutSession(session(orderNo(), { amount: 0 }))).rejects.toThrow(
      RangeError,
    );
    await expect(
      stripe.createCheckoutSession(session(orderNo(), { amount: 12.5 })),
    ).rejects.toThrow(RangeError);
    await expect(
      stripe.createCheckoutSession(session(orderNo(), { currency: "dollars" })),
    ).rejects.toThrow(RangeError);
    await expect(stripe.createCheckoutSession(session(""))).rejects.toThrow(RangeError);
    expect(fake.requests.length).toBe(before);
  });
});

describe("refund", () => {
  it("refunds a paid order with an idempotency key, replaying a retried refund", async () => {
    const no = orderNo();
    const created = await stripe.createCheckoutSession(session(no));
    fake.completeSession(created.id);
    const pi = fake.sessions.get(created.id)!.payment_intent as string;

    const refund = await stripe.refund({ paymentIntentId: pi, amount: 500, orderNo: no });
    expect(refund.id).toMatch(/^re_/);
    expect(refund.status).toBe("succeeded");
    const req = fake.requests.at(-1)!;
    expect(req.path).toBe("/v1/refunds");
    expect(req.headers["idempotency-key"]).toBe(`refund:${no}:500`);
    expect(req.form).toEqual({ payment_intent: pi, amount: "500", "metadata[order_no]": no });

    const count = fake.refunds.size;
    const again = await stripe.refund({ paymentIntentId: pi, amount: 500, orderNo: no });
    expect(again).toEqual(refund);
    expect(fake.refunds.size).toBe(count);
  });

  it("maps Stripe's refusal (unknown PaymentIntent) to StripeProviderError", async () => {
    const err = await rejection(
      stripe.refund({ paymentIntentId: "pi_doesnotexist", amount: 100, orderNo: orderNo() }),
    );
    expect(err).toBeInstanceOf(StripeProviderError);
    const e = err as StripeProviderError;
    expect(e.kind).toBe("invalid_request");
    expect(e.code).toBe("resource_missing");
    expect(e.statusCode).toBe(400);
    expect(e.message).toBe("Stripe rejected the payment request");
  });
});

describe("verifyWebhook", () => {
  async function paidSession() {
    const no = orderNo();
    const created = await stripe.createCheckoutSession(session(no));
    return { no, created, ...fake.completeSession(created.id) };
  }

  it("accepts a correctly signed checkout.session.completed and narrows it", async () => {
    const { no, created, payload, header } = await paidSession();
    const event = await stripe.verifyWebhook(payload, header);
    const parsed = JSON.parse(payload);
    expect(event).toEqual({
      id: parsed.id,
      type: "checkout.session.completed",
      orderNo: no,
      paymentIntentId: fake.sessions.get(created.id)!.payment_intent,
      amountTotal: 1999,
      currency: "usd",
      paymentStatus: "paid",
    });
    expect(event.id).toMatch(/^evt_/);
  });

  it("narrows checkout.session.expired and charge.refunded; other types keep only id and type", async () => {
    const no = orderNo();
    const created = await stripe.createCheckoutSession(session(no));
    const expired = fake.expireSession(created.id);
    expect(await stripe.verifyWebhook(expired.payload, expired.header)).toEqual({
      id: JSON.parse(expired.payload).id,
      type: "checkout.session.expired",
      orderNo: no,
      amountTotal: 1999,
      currency: "usd",
      paymentStatus: "unpaid",
    });

    const paid = await paidSession();
    const pi = fake.sessions.get(paid.created.id)!.payment_intent as string;
    const refund = await stripe.refund({ paymentIntentId: pi, amount: 1999, orderNo: paid.no });
    const refunded = fake.chargeRefunded(refund.id);
    expect(await stripe.verifyWebhook(refunded.payload, refunded.header)).toEqual({
      id: JSON.parse(refunded.payload).id,
      type: "charge.refunded",
      orderNo: paid.no,
      paymentIntentId: pi,
      amountTotal: 1999,
      amountRefunded: 1999,
      currency: "usd",
    });

    const other = JSON.stringify({
      id: "evt_other",
      object: "event",
      type: "customer.created",
      data: { object: { id: "cus_1", object: "customer" } },
    });
    expect(await stripe.verifyWebhook(other, fake.sign(other))).toEqual({
      id: "evt_other",
      type: "customer.created",
    });
  });

  it("rejects a tampered payload", async () => {
    const { payload, header } = await paidSession();
    const tampered = payload.replace('"amount_total": 1999', '"amount_total": 1');
    expect(tampered).not.toBe(payload);
    await webhookRejection(stripe.verifyWebhook(tampered, header), "bad_signature");
  });

  it("rejects a signature made with another secret", async () => {
    const { payload } = await paidSession();
    const header = fake.sign(payload, { secret: "whsec_someoneElsesSecret0000000000" });
    await webhookRejection(stripe.verifyWebhook(payload, header), "bad_signature");
  });

  it("rejects a timestamp 301 s old and accepts one exactly 300 s old", async () => {
    const { payload } = await paidSession();
    const now = new Date();
    const nowS = Math.floor(now.getTime() / 1000);
    await webhookRejection(
      stripe.verifyWebhook(payload, fake.sign(payload, { timestamp: nowS - 301 }), now),
      "stale_timestamp",
    );
    const ok = await stripe.verifyWebhook(
      payload,
      fake.sign(payload, { timestamp: nowS - 300 }),
      now,
    );
    expect(ok.type).toBe("checkout.session.completed");
  });

  it("rejects a timestamp 301 s in the future and accepts one exactly 300 s ahead", async () => {
    const { payload } = await paidSession();
    const now = new Date();
    const nowS = Math.floor(now.getTime() / 1000);
    await webhookRejection(
      stripe.verifyWebhook(payload, fake.sign(payload, { timestamp: nowS + 301 }), now),
      "future_timestamp",
    );
    const ok = await stripe.verifyWebhook(
      payload,
      fake.sign(payload, { timestamp: nowS + 300 }),
      now,
    );
    expect(ok.type).toBe("checkout.session.completed");
  });

  it("uses the given `now` for the age check", async () => {
    const { payload, header } = await paidSession();
    const later = new Date(Date.now() + 10 * 60_000);
    await webhookRejection(stripe.verifyWebhook(payload, header, later), "stale_timestamp");
  });

  it("rejects a missing header", async () => {
    const { payload } = await paidSession();
    await webhookRejection(stripe.verifyWebhook(payload, undefined), "missing_header");
    await webhookRejection(stripe.verifyWebhook(payload, ""), "missing_header");
  });

  it("rejects malformed headers and bodies", async () => {
    const { payload, header } = await paidSession();
    await webhookRejection(stripe.verifyWebhook(payload, "garbage"), "malformed");
    await webhookRejection(stripe.verifyWebhook(payload, "t=abc,v1=00"), "malformed");
    const t = header.split(",")[0]!;
    await webhookRejection(stripe.verifyWebhook(payload, t), "malformed"); // no v1
    await webhookRejection(stripe.verifyWebhook("", header), "malformed");
    const notJson = "this is not json";
    await webhookRejection(stripe.verifyWebhook(notJson, fake.sign(notJson)), "malformed");
    const noType = JSON.stringify({ id: "evt_1", object: "event" });
    await webhookRejection(stripe.verifyWebhook(noType, fake.sign(noType)), "malformed");
  });
});

describe("failures", () => {
  it("a 500 is retried twice, then StripeUnavailableError", async () => {
    fake.fail("500");
    const before = fake.requests.length;
    const err = await rejection(stripe.createCheckoutSession(session(orderNo())));
    expect(err).toBeInstanceOf(StripeUnavailableError);
    expect((err as StripeUnavailableError).reason).toBe("http_status");
    expect((err as StripeUnavailableError).statusCode).toBe(500);
    expect(fake.requests.length - before).toBe(3);
    // every attempt carried the same key, so a late success on Stripe's side is not duplicated
    const keys = new Set(fake.requests.slice(before).map((r) => r.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
  });

  it("a hanging API times out per attempt, then StripeUnavailableError", async () => {
    const quick = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.url,
      timeoutMs: 200,
    });
    fake.fail("hang");
    const before = fake.requests.length;
    const err = await rejection(quick.createCheckoutSession(session(orderNo())));
    expect(err).toBeInstanceOf(StripeUnavailableError);
    expect((err as StripeUnavailableError).reason).toBe("timeout");
    expect(fake.requests.length - before).toBe(3);
  });

  it("an unreachable API is StripeUnavailableError(network)", async () => {
    const dead = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: "http://127.0.0.1:9", // discard port: nothing listens
      timeoutMs: 1000,
    });
    const err = await rejection(dead.refund({ paymentIntentId: "pi_x", amount: 1, orderNo: "O1" }));
    expect(err).toBeInstanceOf(StripeUnavailableError);
    expect((err as StripeUnavailableError).reason).toBe("network");
  });

  it("a wrong API key is StripeProviderError(authentication) without either key in it", async () => {
    const wrongKey = "sk_test_WrongKeyThatMustNotLeak0123456789";
    const wrong = createStripeProvider({
      secretKey: wrongKey,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.url,
    });
    const before = fake.requests.length;
    const err = await rejection(wrong.createCheckoutSession(session(orderNo())), [wrongKey]);
    expect(err).toBeInstanceOf(StripeProviderError);
    const e = err as StripeProviderError;
    expect(e.kind).toBe("authentication");
    expect(e.statusCode).toBe(401);
    expect(e.stripeMessage).toContain("Invalid API Key provided");
    expect(fake.requests.length - before).toBe(1); // a 401 is not retried
  });

  it("uses the injected fetch", async () => {
    const urls: string[] = [];
    const counted = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.url,
      fetch: (input, init) => {
        urls.push(String(input));
        return fetch(input, init);
      },
    });
    await counted.createCheckoutSession(session(orderNo()));
    expect(urls).toEqual([`${fake.url}/v1/checkout/sessions`]);
  });

  it("refuses an apiBase with a path and empty secrets, without echoing them", () => {
    const base = { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET };
    expect(() => createStripeProvider({ ...base, apiBase: `${fake.url}/relay` })).toThrow(
      TypeError,
    );
    expect(() => createStripeProvider({ ...base, secretKey: "" })).toThrow(TypeError);
    expect(() => createStripeProvider({ ...base, webhookSecret: " " })).toThrow(TypeError);
  });
});
