import { afterAll, describe, expect, it } from "vitest";
import { startFakeGateway } from "../fakes/payment-gateway";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";
import { packageByCredits } from "./payments-helpers";

// The Host header is the client's to choose: a notify_url built on it would send the signed
// payment callback (and the user's return) to whoever sent the request.
const fake = await startFakeGateway({
  merchantId: "m_trade_assistant",
  secret: "test_signing_secret_0123456789abcdef",
});
afterAll(() => fake.close());

const PUBLIC = "https://api.example.test";
const ctx = await createTestContext({
  env: {
    PAYMENT_GATEWAY_URL: fake.url,
    PAYMENT_MERCHANT_ID: fake.merchantId,
    PAYMENT_SIGNING_SECRET: fake.secret,
    PUBLIC_BASE_URL: PUBLIC,
  },
});
const starter = await packageByCredits(ctx.app, 100);

/** The request as @hono/node-server builds it from a forged `Host: evil.example`. */
async function purchaseFromEvilHost(app: typeof ctx.app, payType: string) {
  const user = await registerUser(app);
  return call(app, "http://evil.example/api/v1/credits/purchase", {
    json: { package_id: starter.id, pay_type: payType },
    token: user.accessToken,
    csrf: user.csrfToken,
  });
}

describe("outgoing URLs never come from the Host header", () => {
  it("builds the gateway's notify_url and return_url on PUBLIC_BASE_URL", async () => {
    const { status, body } = await purchaseFromEvilHost(ctx.app, "wxpay");
    expect(status).toBe(201);
    const order = fake.getOrder(body.order_no)!;
    expect(order.notify_url).toBe(`${PUBLIC}/api/v1/payments/callback`);
    expect(JSON.stringify(fake.requests.at(-1))).not.toContain("evil.example");
  });

  it("falls back to the server's own address, not the request's, without PUBLIC_BASE_URL", async () => {
    const sandboxApp = await ctx.makeApp({}, { PAYMENT_GATEWAY_URL: "", PUBLIC_BASE_URL: "" });
    const { status, body } = await purchaseFromEvilHost(sandboxApp, "alipay");
    expect(status).toBe(201);
    expect(body.pay_url).toBe(`http://localhost:3000/api/v1/payments/sandbox/${body.order_no}`);
  });
});
