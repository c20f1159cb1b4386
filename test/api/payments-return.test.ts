import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import { parseConfig } from "../../src/config";
import { applyRefund } from "../../src/modules/payments/service/refunds";
import { startFakeGateway } from "../fakes/payment-gateway";
import { startFakeStripe } from "../fakes/stripe";
import { call, expectStatus, registerUser, type Session, api as typed } from "../support/client";
import { createTestContext, PRODUCTION_ENV, registerAdmin } from "../support/harness";
import { buy, deliver, packageByCredits, paidEvent } from "./payments-helpers";

const RETURN_URL = "https://shop.example.test/checkout/done?from=pay";
const returnTo = (orderNo: string, result?: string) =>
  `${RETURN_URL}&order_no=${orderNo}${result ? `&result=${result}` : ""}`;

async function notificationsOf(app: App, user: Session) {
  // Typed by the OpenAPI document (ADR 0095).
  const answer = await typed(app).get("/api/v1/notifications", {
    token: user.accessToken,
    query: { size: 100 },
  });
  expectStatus(answer, 200);
  return answer.body.items;
}

// The fake gateway calls notify_url over real HTTP, so that app listens on a real port.
const fake = await startFakeGateway({
  merchantId: "m_return_test",
  secret: "test_signing_secret_0123456789abcdef",
});
const stripe = await startFakeStripe();
let gatewayApp: App | undefined;
const server = createServer(getRequestListener((req) => gatewayApp!.fetch(req)));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  await Promise.all([fake.close(), stripe.close()]);
  await new Promise((resolve) => server.close(resolve));
});

const gateway = await createTestContext({
  env: {
    PAYMENT_GATEWAY_URL: fake.url,
    PAYMENT_MERCHANT_ID: fake.merchantId,
    PAYMENT_SIGNING_SECRET: fake.secret,
    PUBLIC_BASE_URL: base,
    PAYMENT_RETURN_URL: RETURN_URL,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  },
});
gatewayApp = gateway.app;
const sandbox = await createTestContext({ env: { PAYMENT_RETURN_URL: RETURN_URL } });

async function order(app: App, payType: "alipay" | "wxpay" | "card") {
  const user = await registerUser(app);
  const pkg = await packageByCredits(app, 100);
  const { status, body } = await buy(app, user, "/api/v1/credits/purchase", {
    package_id: pkg.id,
    pay_type: payType,
  });
  expect(status).toBe(201);
  return { user, order: body as { order_no: string; amount: number; currency: string } };
}

describe("where the payer lands after paying", () => {
  it("the gateway's return_url is the frontend page, the notify_url stays on the API", async () => {
    const { order: o } = await order(gateway.app, "alipay");
    expect(fake.getOrder(o.order_no)).toMatchObject({
      return_url: returnTo(o.order_no),
      notify_url: `${base}/api/v1/payments/callback`,
    });
  });

  it("Stripe's success and cancel URLs are the frontend page with the outcome", async () => {
    const { order: o } = await order(gateway.app, "card");
    const session = [...stripe.sessions.values()].find(
      (s) => (s.metadata as Record<string, string>)?.order_no === o.order_no,
    );
    expect(session).toBeDefined();
    expect(session!.success_url).toBe(returnTo(o.order_no, "success"));
    expect(session!.cancel_url).toBe(returnTo(o.order_no, "cancel"));
  });

  it("the sandbox page links back to the frontend page, before and after paying", async () => {
    const { order: o } = await order(sandbox.app, "wxpay");
    const href = returnTo(o.order_no).replaceAll("&", "&amp;");
    const page = await call(sandbox.app, `/api/v1/payments/sandbox/${o.order_no}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<a id="return" href="${href}">`);
    const pay = await call(sandbox.app, `/api/v1/payments/sandbox/${o.order_no}/pay`, {
      method: "POST",
    });
    expect(pay.status).toBe(303);
    const after = await call(sandbox.app, `/api/v1/payments/sandbox/${o.order_no}`);
    expect(after.body).toContain('<dd id="status">paid</dd>');
    expect(after.body).toContain(`href="${href}"`);
  });

  it("without PAYMENT_RETURN_URL: FRONTEND_URL's /checkout/result, never an API URL", async () => {
    const { app } = await createTestContext({
      env: { FRONTEND_URL: "https://web.example.test/app/", PUBLIC_BASE_URL: "https://api.x" },
    });
    const { order: o } = await order(app, "alipay");
    const page = await call(app, `/api/v1/payments/sandbox/${o.order_no}`);
    expect(page.body).toContain(
      `href="https://web.example.test/app/checkout/result?order_no=${o.order_no}"`,
    );
  });
});

describe("PAYMENT_RETURN_URL", () => {
  it("must be https in production and carry no fragment", () => {
    expect(() =>
      parseConfig({ ...PRODUCTION_ENV, PAYMENT_RETURN_URL: "http://shop.example.test/done" }),
    ).toThrow("PAYMENT_RETURN_URL: must be an https:// URL in production");
    expect(() => parseConfig({ PAYMENT_RETURN_URL: "https://shop.example.test/#/done" })).toThrow(
      /PAYMENT_RETURN_URL: must not contain a fragment/,
    );
    expect(
      parseConfig({ ...PRODUCTION_ENV, PAYMENT_RETURN_URL: "https://shop.example.test/done" })
        .PAYMENT_RETURN_URL,
    ).toBe("https://shop.example.test/done");
  });
});

describe("payment and refund notifications", () => {
  it("a paid order notifies its owner once, however often the callback comes", async () => {
    const { user, order: o } = await order(sandbox.app, "alipay");
    const event = paidEvent(o);
    for (let i = 0; i < 3; i++) {
      expect((await deliver(sandbox.app, sandbox.deps, event)).status).toBe(200);
    }
    // A second, different event for the same paid order (the gateway's own retry) too.
    expect((await deliver(sandbox.app, sandbox.deps, paidEvent(o))).status).toBe(200);
    const paid = (await notificationsOf(sandbox.app, user)).filter(
      (n) => n.kind === "payment_succeeded",
    );
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      title: "Payment received",
      data: { order_no: o.order_no, amount: o.amount, currency: o.currency },
    });
    expect(paid[0]!.body).toContain("Starter 100");
  });

  it("an unpaid or cancelled order notifies nothing", async () => {
    const { user, order: o } = await order(sandbox.app, "alipay");
    await call(sandbox.app, `/api/v1/payments/sandbox/${o.order_no}/cancel`, { method: "POST" });
    expect(await notificationsOf(sandbox.app, user)).toEqual([]);
  });

  it("a refund notifies each state once: under way, then made", async () => {
    const admin = await registerAdmin(gateway);
    const { user, order: o } = await order(gateway.app, "wxpay");
    expect(await fake.pay(o.order_no)).toBe(200);
    fake.setRefundOutcome("pending");
    try {
      const refund = await typed(gateway.app).post("/api/v1/admin/payments/{order_no}/refund", {
        params: { order_no: o.order_no },
        json: { reason: "customer asked" },
        token: admin.accessToken,
        csrf: admin.csrfToken,
      });
      expectStatus(refund, 202);
      const refundNo = refund.body.refund_no;
      let kinds = (await notificationsOf(gateway.app, user)).map((n) => n.kind);
      expect(kinds.sort()).toEqual(["payment_succeeded", "refund_pending"]);

      expect(await fake.completeRefund(refundNo)).toBe(200);
      expect(await fake.deliverCallback(o.order_no, { times: 2 })).toEqual([200, 200]);
      await applyRefund(gateway.deps, refundNo, null); // a reconciliation racing the callback
      const all = await notificationsOf(gateway.app, user);
      kinds = all.map((n) => n.kind);
      expect(kinds.sort()).toEqual(["payment_succeeded", "refund_pending", "refund_succeeded"]);
      expect(all.find((n) => n.kind === "refund_succeeded")).toMatchObject({
        title: "Refund completed",
        data: { order_no: o.order_no, refund_no: refundNo, status: "succeeded" },
      });
    } finally {
      fake.setRefundOutcome("succeeded");
    }
  });
});
