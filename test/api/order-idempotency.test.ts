import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { buy, packageByCredits, planByCode } from "./payments-helpers";

// Issue #21: purchase, subscribe and create-order ignored Idempotency-Key, so a double click
// made two orders. Every POST that creates an order now honours it (http/idempotency.ts).
const ctx = await createTestContext();
const { app, deps } = ctx;
const starter = await packageByCredits(app, 100);
const pro = await planByCode(app, "pro");

async function ordersOf(userId: string) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from payment_transactions where user_id = ${userId}`,
  );
  return row!.n;
}

const withKey = (user: Session, path: string, json: unknown, key: string) =>
  call(app, path, {
    json,
    token: user.accessToken,
    csrf: user.csrfToken,
    headers: { "Idempotency-Key": key },
  });

const ORDER_POSTS = [
  {
    path: "/api/v1/credits/purchase",
    body: { package_id: starter.id, pay_type: "alipay" },
    other: { package_id: starter.id, pay_type: "wxpay" },
  },
  {
    path: "/api/v1/credits/subscribe",
    body: { plan_id: pro.id, billing_cycle: "monthly", pay_type: "alipay" },
    other: { plan_id: pro.id, billing_cycle: "yearly", pay_type: "alipay" },
  },
  {
    path: "/api/v1/payments/create-order",
    body: { plan: "pro", pay_type: "alipay" },
    other: { plan: "pro", pay_type: "wxpay" },
  },
] as const;

describe.each(ORDER_POSTS)("Idempotency-Key on POST $path", ({ path, body, other }) => {
  it("replays the first order for the same key and body", async () => {
    const user = await registerUser(app);
    const key = crypto.randomUUID();
    const first = await withKey(user, path, body, key);
    expect(first.status).toBe(201);
    expect(first.res.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await withKey(user, path, body, key);
    expect(again.status).toBe(201);
    expect(again.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await ordersOf(user.userId)).toBe(1);
    // Without a key, or with another one, it is a new order.
    expect((await buy(app, user, path, body)).status).toBe(201);
    expect((await withKey(user, path, body, crypto.randomUUID())).status).toBe(201);
    expect(await ordersOf(user.userId)).toBe(3);
  });

  it("refuses the same key with another body: 422 idempotency_conflict, no order", async () => {
    const user = await registerUser(app);
    const key = crypto.randomUUID();
    expect((await withKey(user, path, body, key)).status).toBe(201);
    const reused = await withKey(user, path, other, key);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("idempotency_conflict");
    expect(reused.body.errors[0]).toMatchObject({
      loc: ["header", "Idempotency-Key"],
      type: "idempotency_key_reused",
    });
    expect(reused.res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await ordersOf(user.userId)).toBe(1);
  });

  it("makes one order for a double click sent with one key", async () => {
    const user = await registerUser(app);
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => withKey(user, path, body, key)),
    );
    const statuses = answers.map((a) => a.status);
    // Each answer is the order (first or replayed) or 409 "still being processed".
    for (const status of statuses) expect([201, 409]).toContain(status);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body.code).toBe("idempotency_conflict");
      expect(answer.res.headers.get("Retry-After")).toBe("1");
    }
    const orders = answers.filter((a) => a.status === 201).map((a) => a.body.order_no);
    expect(orders.length).toBeGreaterThan(0);
    expect(new Set(orders).size).toBe(1);
    expect(await ordersOf(user.userId)).toBe(1);
    // Once the first has finished, a repeat replays it.
    const later = await withKey(user, path, body, key);
    expect(later.status).toBe(201);
    expect(later.body.order_no).toBe(orders[0]);
  });
});

describe("Idempotency-Key on order POSTs", () => {
  it("frees the key after a refused order, so the retry can succeed", async () => {
    const user = await registerUser(app);
    const key = crypto.randomUUID();
    const unknown = { package_id: crypto.randomUUID(), pay_type: "alipay" };
    const refused = await withKey(user, "/api/v1/credits/purchase", unknown, key);
    expect(refused.status).toBe(404);
    const again = await withKey(user, "/api/v1/credits/purchase", unknown, key);
    expect(again.status).toBe(404);
    expect(again.res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await ordersOf(user.userId)).toBe(0);
  });

  it("answers 422 to a malformed key", async () => {
    const user = await registerUser(app);
    const bad = await withKey(
      user,
      "/api/v1/credits/purchase",
      { package_id: starter.id, pay_type: "alipay" },
      "a b",
    );
    expect(bad.status).toBe(422);
    expect(await ordersOf(user.userId)).toBe(0);
  });

  it("declares the header on every order-creating POST in the OpenAPI document", async () => {
    const { body: doc } = await call(app, "/api/v1/openapi.json");
    for (const { path } of ORDER_POSTS) {
      const params = doc.paths[path].post.parameters ?? [];
      expect(params, path).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    }
  });
});
