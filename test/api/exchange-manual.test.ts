import { describe, expect, it } from "vitest";
import { call, expectStatus, registerUser, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

// Manual exchange rates as a quotation uses them (API.md: "conversions and quotations show
// source: manual and its date"). The admin routes themselves are tested in
// exchange-sources.test.ts and review-21-manual-rate-base.test.ts.

const ctx = await createTestContext();
const { app } = ctx;
const today = () => new Date().toISOString().slice(0, 10);

async function manual(currency: string, json: unknown, method: "PUT" | "DELETE" = "PUT") {
  const admin = await registerAdmin(ctx);
  return call(app, `/api/v1/admin/exchange-rates/${currency}`, {
    method,
    token: admin.accessToken,
    csrf: admin.csrfToken,
    ...(method === "PUT" ? { json } : {}),
  });
}

describe("a quotation priced through a manual rate", () => {
  it("freezes the manual rate with source manual and its date; DELETE leaves the quotation's rate, new ones are refused", async () => {
    const seller = await registerUser(app);
    const t = typed(app);
    const product = await t.post("/api/v1/products", {
      token: seller.accessToken,
      json: { name: "Solar pump", price: 10_000, currency: "USD" },
    });
    expectStatus(product, 201);
    const quote = () =>
      call(app, "/api/v1/quotations", {
        token: seller.accessToken,
        json: { currency: "YER", items: [{ product_id: product.body.id, quantity: 2 }] },
      });

    // No source covers YER: the item cannot be priced.
    const before = await quote();
    expect(before.status).toBe(422);
    expect(before.body.errors[0].type).toBe("no_exchange_rate");

    const put = await manual("YER", { base: "USD", rate: "250.15" });
    expect(put.status).toBe(200);
    const created = await quote();
    expect(created.status).toBe(201);
    // 100.00 USD x 250.15 = 25,015 YER (two decimals: 2,501,500 minor units).
    expect(created.body.items[0].unit_price).toBe(2_501_500);
    expect(created.body.exchange_rates).toEqual([
      expect.objectContaining({
        from: "USD",
        to: "YER",
        rate: "250.15",
        source: "manual",
        date: today(),
        age_days: 0,
      }),
    ]);

    // The rates list and a conversion say the same.
    const converted = await call(app, "/api/v1/exchange/convert?from=USD&to=YER&amount=1", {
      token: seller.accessToken,
    });
    expect(converted.body).toMatchObject({ source: "manual", date: today(), rate: "250.15" });

    expect((await manual("YER", undefined, "DELETE")).status).toBe(204);
    const kept = await call(app, `/api/v1/quotations/${created.body.id}`, {
      token: seller.accessToken,
    });
    expect(kept.body.exchange_rates[0]).toMatchObject({ rate: "250.15", source: "manual" });
    expect((await quote()).status).toBe(422);
  });

  it("a three-decimal currency (KWD) is converted to its own minor unit", async () => {
    const seller = await registerUser(app);
    const product = await typed(app).post("/api/v1/products", {
      token: seller.accessToken,
      json: { name: "Valve", price: 1000, currency: "USD" },
    });
    expectStatus(product, 201);
    expect((await manual("KWD", { base: "USD", rate: "0.3075" })).status).toBe(200);
    const created = await call(app, "/api/v1/quotations", {
      token: seller.accessToken,
      json: { currency: "KWD", items: [{ product_id: product.body.id, quantity: 1 }] },
    });
    expect(created.status).toBe(201);
    // 10.00 USD x 0.3075 = 3.075 KWD = 3075 fils.
    expect(created.body.items[0].unit_price).toBe(3075);
    expect(created.body.exchange_rates[0]).toMatchObject({ source: "manual", rate: "0.3075" });
    expect((await manual("KWD", undefined, "DELETE")).status).toBe(204);
  });
});
