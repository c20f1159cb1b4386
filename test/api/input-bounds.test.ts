import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

const ctx = await createTestContext();
const { app } = ctx;
const user = await registerUser(app);
const admin = await registerAdmin(ctx);
const as = (session: typeof user, json?: unknown, method?: string) => ({
  token: session.accessToken,
  csrf: session.csrfToken,
  ...(json === undefined ? {} : { json }),
  ...(method ? { method } : {}),
});

/** A 422 naming the field; the first `loc` entry is where it came from (body/json, query). */
const refused = (res: { status: number; body: any }, [, ...field]: (string | number)[]) => {
  expect(res.status).toBe(422);
  expect(typeof res.body.detail).toBe("string");
  expect(res.body.errors).toEqual(
    expect.arrayContaining([expect.objectContaining({ loc: [expect.any(String), ...field] })]),
  );
};

describe("totals that would overflow their integer column", () => {
  const bigQuotation = async () => {
    const res = await call(
      app,
      "/api/v1/quotations",
      as(user, { currency: "USD", items: [{ name: "Crane", quantity: 1, unit_price: 2e9 }] }),
    );
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it("PATCH shipping on a large subtotal is a 422 naming shipping, and the row is unchanged", async () => {
    const id = await bigQuotation();
    const res = await call(
      app,
      `/api/v1/quotations/${id}`,
      as(user, { shipping: 147_483_648 }, "PATCH"),
    );
    refused(res, ["body", "shipping"]);
    const after = await call(app, `/api/v1/quotations/${id}`, as(user));
    expect(after.body).toMatchObject({ shipping: 0, total: 2e9 });
  });

  it("a create whose items plus shipping overflow is a 422 naming shipping", async () => {
    const res = await call(
      app,
      "/api/v1/quotations",
      as(user, {
        currency: "USD",
        shipping: 2e9,
        items: [{ name: "Crane", quantity: 1, unit_price: 2e9 }],
      }),
    );
    refused(res, ["body", "shipping"]);
  });

  it("integers beyond a column's range are a 422, never a 500", async () => {
    for (const moq of [2 ** 31, 2 ** 63, -(2 ** 31) - 1]) {
      const res = await call(app, "/api/v1/products", as(user, { name: "Bolt", moq }));
      refused(res, ["body", "moq"]);
    }
    // 1e309 is not JSON-representable as a number: JSON.parse reads it as Infinity.
    const huge = await app.request("/api/v1/products", {
      method: "POST",
      headers: { Authorization: `Bearer ${user.accessToken}`, "Content-Type": "application/json" },
      body: '{"name":"Bolt","price":1e309}',
    });
    expect(huge.status).toBe(422);
  });
});

describe("a balance that would overflow its integer column", () => {
  it("an admin adjustment past it is a 422 naming delta, and the balance is unchanged", async () => {
    const target = await registerUser(app);
    // Near the ceiling without ~2000 admin calls: only this test's own account is touched.
    await ctx.database.db.execute(
      sql`update org_credits set balance = 2147483000
          where org_id = (select org_id from org_members where user_id = ${target.userId})`,
    );
    const res = await call(
      app,
      `/api/v1/admin/credit-users/${target.userId}/adjust`,
      as(admin, { delta: 1_000_000, reason: "overflow probe" }),
    );
    refused(res, ["body", "delta"]);
    const [row] = await queryRows<{ balance: number }>(
      ctx.deps.db,
      sql`select balance from user_credits where user_id = ${target.userId}`,
    );
    expect(row!.balance).toBe(2147483000);
  });
});

describe("system config keys are looked up without the prototype", () => {
  for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
    it(`${key} is an unknown key: 404 to GET and PUT`, async () => {
      const get = await call(app, `/api/v1/admin/system-config/${key}`, as(admin));
      expect(get.status).toBe(404);
      expect(get.body.detail).toBe("Unknown config key");
      const put = await call(
        app,
        `/api/v1/admin/system-config/${key}`,
        as(admin, { value: 1 }, "PUT"),
      );
      expect(put.status).toBe(404);
      expect(put.body.detail).toBe("Unknown config key");
    });
  }
});

describe("currencies are known ISO 4217 codes everywhere", () => {
  it("ZZZ is a 422 on customers, products and quotations", async () => {
    refused(
      await call(
        app,
        "/api/v1/customers",
        as(user, { company: "Acme", estimated_currency: "ZZZ" }),
      ),
      ["body", "estimated_currency"],
    );
    refused(await call(app, "/api/v1/products", as(user, { name: "Bolt", currency: "ZZZ" })), [
      "body",
      "currency",
    ]);
    refused(
      await call(
        app,
        "/api/v1/quotations",
        as(user, { currency: "ZZZ", items: [{ name: "Bolt", quantity: 1, unit_price: 1 }] }),
      ),
      ["body", "currency"],
    );
  });

  it("ZZZ is a 422 on exchange queries and admin plans and packages", async () => {
    refused(await call(app, "/api/v1/exchange/rates?base=ZZZ", as(user)), ["query", "base"]);
    refused(await call(app, "/api/v1/exchange/convert?amount=1&from=usd&to=ZZZ", as(user)), [
      "query",
      "to",
    ]);
    refused(
      await call(
        app,
        "/api/v1/admin/credit-packages",
        as(admin, { name: "Pack", credits: 10, price: 100, currency: "ZZZ" }),
      ),
      ["body", "currency"],
    );
    refused(
      await call(
        app,
        "/api/v1/admin/credit-plans",
        as(admin, {
          code: "zzz_plan",
          name: "Z",
          currency: "ZZZ",
          monthly_price: 1,
          monthly_credits: 1,
        }),
      ),
      ["body", "currency"],
    );
  });

  it("known codes still pass, lower case too where a query always took it", async () => {
    const product = await call(
      app,
      "/api/v1/products",
      as(user, { name: "Bolt", currency: "JPY" }),
    );
    expect(product.status).toBe(201);
    const rates = await call(app, "/api/v1/exchange/rates?base=usd", as(user));
    expect(rates.status).not.toBe(422);
  });
});
