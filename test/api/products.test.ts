import { describe, expect, it } from "vitest";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app } = ctx;
const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

describe("products", () => {
  it("creates, reads, lists, changes and deletes a product", async () => {
    const api = as(await registerUser(app));
    const created = await api("/api/v1/products", {
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
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "不锈钢保温杯 500ml",
      sku: "CUP-500",
      price: 1299,
      currency: "USD",
      moq: 500,
      specs: { material: "304 stainless steel", capacity: "500ml" },
    });
    const id = created.body.id;
    expect((await api(`/api/v1/products/${id}`)).body).toEqual(created.body);

    await api("/api/v1/products", {
      json: { name: "Glass bottle", sku: "BOT-1", category: "glass" },
    });
    const byQ = await api("/api/v1/products?q=cup-");
    expect(byQ.body.items.map((p: { id: string }) => p.id)).toEqual([id]);
    const byName = await api(`/api/v1/products?q=${encodeURIComponent("保温")}`);
    expect(byName.body.total).toBe(1);
    const byCategory = await api("/api/v1/products?category=glass&sort=name");
    expect(byCategory.body).toMatchObject({ total: 1, page: 1, size: 20 });
    expect(byCategory.body.items[0].name).toBe("Glass bottle");
    const sorted = await api("/api/v1/products?sort=name");
    expect(sorted.body.items.map((p: { name: string }) => p.name)).toEqual([
      "Glass bottle",
      "不锈钢保温杯 500ml",
    ]);

    const patched = await api(`/api/v1/products/${id}`, {
      method: "PATCH",
      json: { price: 1350, specs: null, category: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      price: 1350,
      specs: null,
      category: null,
      sku: "CUP-500",
    });

    expect((await api(`/api/v1/products/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/api/v1/products/${id}`)).status).toBe(404);
    expect((await api(`/api/v1/products/${id}`, { method: "DELETE" })).status).toBe(404);
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
