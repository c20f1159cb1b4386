import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeStripe, startFakeStripe } from "../fakes/stripe";
import { type NeonRelay, startNeonRelay } from "../support/neon-relay";
import {
  callWorker,
  postJson,
  startWorker,
  suiteDatabase,
  TEST_BINDINGS,
  type Worker,
} from "../support/workerd";

/**
 * The payments Worker takes card payments in workerd: the Stripe SDK is bundled only into the
 * Workers whose entry hands its factory in (functions/payments.ts; src/deps.ts
 * RuntimeAdapters.stripe), so this is the proof that the one that needs it has it.
 */

const DATABASE_URL = process.env.DATABASE_URL;

describe.skipIf(!DATABASE_URL)("payments Worker in workerd: a card payment through Stripe", () => {
  let scratch: string;
  let relay: NeonRelay;
  let stripe: FakeStripe;
  let auth: Worker;
  let payments: Worker;
  let token = "";
  let csrf = "";
  let database: Awaited<ReturnType<typeof suiteDatabase>>;
  const bearer = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "ta-worker-pay-"));
    database = await suiteDatabase("pay");
    [relay, stripe] = await Promise.all([startNeonRelay(), startFakeStripe()]);
    const bindings = {
      ...TEST_BINDINGS,
      DATABASE_URL: database.url,
      NEON_WS_PROXY: relay.proxy,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    };
    const noEnv = join(scratch, "none.env");
    [auth, payments] = await Promise.all([
      startWorker("auth", bindings, noEnv),
      startWorker("payments", bindings, noEnv),
    ]);
    await Promise.all([auth.ready, payments.ready]);
    const registered = await callWorker(
      auth,
      "/api/v1/auth/register",
      postJson({
        email: `pay-${Date.now().toString(36)}@example.com`,
        password: "correct horse 1",
      }),
    );
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    token = registered.body.access_token;
    csrf = registered.body.csrf_token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([auth?.dispose(), payments?.dispose()]);
    await relay?.close();
    await stripe?.close();
    await database?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("opens a Checkout Session for a credit package and credits the buyer on its webhook", async () => {
    const packages = await callWorker(payments, "/api/v1/credits/packages");
    expect(packages.status).toBe(200);
    const starter = packages.body.items.find((p: { credits: number }) => p.credits === 100);
    const balance = async () =>
      (await callWorker(payments, "/api/v1/credits/balance", { headers: bearer() })).body.balance;
    const before = await balance();

    const order = await callWorker(
      payments,
      "/api/v1/credits/purchase",
      // A purchase is a money write: it takes the CSRF token too.
      postJson({ package_id: starter.id, pay_type: "card" }, { ...bearer(), "x-csrf-token": csrf }),
    );
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const [session] = [...stripe.sessions.values()];
    expect(session, "the Worker reached the fake Stripe").toBeDefined();
    expect(order.body.pay_url).toBe(session!.url);

    const paid = stripe.completeSession(String(session!.id));
    const webhook = await callWorker(payments, "/api/v1/payments/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": paid.header },
      body: paid.payload,
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(200);
    expect(await balance()).toBe(before + 100);
  });
});
