import { describe, expect, it } from "vitest";
import {
  type ApiOptions,
  call,
  expectStatus,
  type Operation,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app } = ctx;
const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

describe("products", () => {
  // Typed by the OpenAPI document (test/support/client.ts `api()`, ADR 0095).
  it("creates, reads, lists, changes and deletes a product", async () => {
    const { accessToken: token } = await registerUser(app);
    const products = "/api/v1/products";
    const one = "/api/v1/products/{id}";
    const created = await typed(app).post(products, {
      token,
      json: {
        name: "不锈钢保温杯 500ml",
        sku: "CUP-500",
        category: "drinkware",
        price: 1299,
        currency: "USD",
        unit: "pcs",
        moq: 500,
        hs_code: "9617.00",
        image_url: "https://images.example.com/cup.png",
        specs: { material: "304 stainless steel", capacity: "500ml" },
      },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      name: "不锈钢保温杯 500ml",
      sku: "CUP-500",
      price: 1299,
      currency: "USD",
      moq: 500,
      specs: { material: "304 stainless steel", capacity: "500ml" },
    });
    const params = { id: created.body.id };
    expect((await typed(app).get(one, { token, params })).body).toEqual(created.body);

    const glass = await typed(app).post(products, {
      token,
      json: { name: "Glass bottle", sku: "BOT-1", category: "glass" },
    });
    expectStatus(glass, 201);
    const list = async (
      query: NonNullable<ApiOptions<Operation<typeof products, "get">>["query"]>,
    ) => {
      const page = await typed(app).get(products, { token, query });
      expectStatus(page, 200);
      return page.body;
    };
    expect((await list({ q: "cup-" })).items.map((p) => p.id)).toEqual([params.id]);
    expect((await list({ q: "保温" })).total).toBe(1);
    const byCategory = await list({ category: "glass", sort: "name" });
    expect(byCategory).toMatchObject({ total: 1, page: 1, size: 20 });
    expect(byCategory.items[0]?.name).toBe("Glass bottle");
    expect((await list({ sort: "name" })).items.map((p) => p.name)).toEqual([
      "Glass bottle",
      "不锈钢保温杯 500ml",
    ]);

    const patched = await typed(app).patch(one, {
      token,
      params,
      json: { price: 1350, specs: null, category: null },
    });
    expectStatus(patched, 200);
    expect(patched.body.price).toBe(1350);
    expect(patched.body.specs).toBeNull();
    expect(patched.body.category).toBeNull();
    expect(patched.body.sku).toBe("CUP-500");

    expectStatus(await typed(app).delete(one, { token, params }), 204);
    expect((await typed(app).get(one, { token, params })).status).toBe(404);
    expect((await typed(app).delete(one, { token, params })).status).toBe(404);
  });

  it("keeps SKUs unique per seller", async () => {
    const a = as(await registerUser(app));
    const b = as(await registerUser(app));
    expect((await a("/api/v1/products", { json: { name: "A", sku: "SAME" } })).status).toBe(201);
    const dup = await a("/api/v1/products", { json: { name: "A2", sku: "SAME" } });
    expect(dup.status).toBe(409);
    expect((await b("/api/v1/products", { json: { name: "B", sku: "SAME" } })).status).toBe(201);
    const other = await a("/api/v1/products", { json: { name: "A3", sku: "OTHER" } });
    const clash = await a(`/api/v1/products/${other.body.id}`, {
      method: "PATCH",
      json: { sku: "SAME" },
    });
    expect(clash.status).toBe(409);
  });

  it("validates prices, currencies, urls and paging", async () => {
    const api = as(await registerUser(app));
    for (const body of [
      {},
      { name: "" },
      { name: "x", price: -1 },
      { name: "x", price: 12.5 },
      { name: "x", currency: "usd" },
      { name: "x", image_url: "http://127.0.0.1/admin.png" },
      { name: "x", image_url: "http://localhost/a.png" },
      { name: "x", image_url: "file:///etc/passwd" },
      { name: "x", specs: { weight: 5 } },
      { name: "x", unknown: 1 },
    ]) {
      const res = await api("/api/v1/products", { json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await api("/api/v1/products?size=1001")).status).toBe(422);
    expect((await api("/api/v1/products?size=0")).status).toBe(422);
    expect((await api("/api/v1/products?size=1000")).status).toBe(200);
    expect((await api("/api/v1/products/not-a-uuid")).status).toBe(422);
    const p = await api("/api/v1/products", { json: { name: "x" } });
    expect((await api(`/api/v1/products/${p.body.id}`, { method: "PATCH", json: {} })).status).toBe(
      422,
    );
  });

  it("never shows or changes another seller's product", async () => {
    const owner = as(await registerUser(app));
    const stranger = as(await registerUser(app));
    const { body } = await owner("/api/v1/products", { json: { name: "Secret", sku: "S-1" } });
    expect((await stranger(`/api/v1/products/${body.id}`)).status).toBe(404);
    expect(
      (await stranger(`/api/v1/products/${body.id}`, { method: "PATCH", json: { name: "x" } }))
        .status,
    ).toBe(404);
    expect((await stranger(`/api/v1/products/${body.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await stranger("/api/v1/products")).body.total).toBe(0);
    expect((await owner(`/api/v1/products/${body.id}`)).body.name).toBe("Secret");
    expect((await call(app, "/api/v1/products")).status).toBe(401);
  });
});
