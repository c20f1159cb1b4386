import { describe, expect, it } from "vitest";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";
import { buy, packageByCredits } from "./payments-helpers";

// Issue #21: a checkout page polling its order spent the 20/min payment budget, so the
// purchase after it got 429. Reads and writes now have a budget each (20 a minute).
const { app } = await createTestContext();
const starter = await packageByCredits(app, 100);
const purchase = (user: Awaited<ReturnType<typeof registerUser>>) =>
  buy(app, user, "/api/v1/credits/purchase", { package_id: starter.id, pay_type: "alipay" });

describe("payment budgets", () => {
  it("lets a purchase through after 25 polls of the orders", async () => {
    const user = await registerUser(app);
    const first = await purchase(user);
    expect(first.status).toBe(201);
    const polls: number[] = [];
    for (let i = 0; i < 25; i++) {
      const path =
        i % 2 ? "/api/v1/payments/orders" : `/api/v1/payments/orders/${first.body.order_no}`;
      polls.push((await call(app, path, { token: user.accessToken })).status);
    }
    // 20 reads a minute: the 21st poll is 429, the budget of its own.
    expect(polls.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(polls.slice(20)).toEqual(Array(5).fill(429));
    const after = await purchase(user);
    expect(after.status).toBe(201);
    expect(after.res.headers.get("RateLimit-Remaining")).toBe("18");
  });

  it("answers 429 to the 21st order in a minute, and reads still work", async () => {
    const user = await registerUser(app);
    for (let i = 0; i < 20; i++) {
      expect((await purchase(user)).status, `order ${i + 1}`).toBe(201);
    }
    const limited = await purchase(user);
    expect(limited.status).toBe(429);
    expect(Number(limited.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    const read = await call(app, "/api/v1/payments/orders", { token: user.accessToken });
    expect(read.status).toBe(200);
    expect(read.body.total).toBe(20);
  });
});
