import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

// Issue #24: products carry `aliases` (other names buyers use; an inquiry line naming one
// matches it) and `lead_time_days`, through create, update, get, list, import and export.

const ctx = await createTestContext();
const { app, deps } = ctx;

const create = (user: Session, json: unknown) =>
  call(app, "/api/v1/products", { token: user.accessToken, json });

async function upload(path: string, token: string, bytes: Uint8Array | string, filename: string) {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], filename, { type: "text/csv" }));
  return call(app, path, { method: "POST", token, body: form });
}

const stored = (id: string) =>
  queryRows<{ aliases: string[]; lead_time_days: number | null }>(
    deps.db,
    sql`select aliases, lead_time_days from products where id = ${id}::uuid`,
  ).then((rows) => rows[0]);

describe("product aliases and lead time", () => {
  it("are created, read, listed and changed, and default to none", async () => {
    const user = await registerUser(app);
    const made = await create(user, {
      name: "LED Panel Light 600x600 40W",
      sku: "LP-6060",
      lead_time_days: 21,
      aliases: ["Panel LED 60x60", " LED面板灯 ", "Panel LED 60x60", "لوحة ليد"],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      lead_time_days: 21,
      aliases: ["Panel LED 60x60", "LED面板灯", "لوحة ليد"],
    });
    expect(await stored(made.body.id)).toEqual({
      aliases: ["Panel LED 60x60", "LED面板灯", "لوحة ليد"],
      lead_time_days: 21,
    });

    const plain = await create(user, { name: "Cable gland M20" });
    expect(plain.body).toMatchObject({ aliases: [], lead_time_days: null });

    const got = await call(app, `/api/v1/products/${made.body.id}`, { token: user.accessToken });
    expect(got.body).toMatchObject({ lead_time_days: 21, aliases: made.body.aliases });
    const list = await call(app, "/api/v1/products?sort=name", { token: user.accessToken });
    expect(list.body.items.map((p: { aliases: string[] }) => p.aliases)).toEqual([
      [],
      ["Panel LED 60x60", "LED面板灯", "لوحة ليد"],
    ]);

    const patched = await call(app, `/api/v1/products/${made.body.id}`, {
      method: "PATCH",
      token: user.accessToken,
      json: { aliases: ["LED-Panelleuchte"], lead_time_days: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ aliases: ["LED-Panelleuchte"], lead_time_days: null });
    // A patch without them leaves them.
    await call(app, `/api/v1/products/${made.body.id}`, {
      method: "PATCH",
      token: user.accessToken,
      json: { lead_time_days: 30 },
    });
    expect(await stored(made.body.id)).toEqual({
      aliases: ["LED-Panelleuchte"],
      lead_time_days: 30,
    });
    // null clears the aliases.
    await call(app, `/api/v1/products/${made.body.id}`, {
      method: "PATCH",
      token: user.accessToken,
      json: { aliases: null },
    });
    expect((await stored(made.body.id))?.aliases).toEqual([]);
  }, 120_000);

  it("refuses bad values with 422", async () => {
    const user = await registerUser(app);
    for (const bad of [
      { aliases: "Panel LED" },
      { aliases: [""] },
      { aliases: ["x".repeat(201)] },
      { aliases: Array.from({ length: 51 }, (_, i) => `a${i}`) },
      { aliases: [42] },
      { lead_time_days: -1 },
      { lead_time_days: 1.5 },
      { lead_time_days: 3651 },
      { lead_time_days: "21" },
    ]) {
      const res = await create(user, { name: "Panel", ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    const [row] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from products where user_id = ${user.userId}::uuid`,
    );
    expect(row!.n).toBe(0);
  });

  it("are imported (updating by SKU, an empty cell keeping the stored value) and exported", async () => {
    const user = await registerUser(app);
    const csv =
      "name,sku,price,lead time,aliases\r\n" +
      'LED Flood Light 50W,FL-50,9.00,14,"Fluter; 投光灯; proyector LED"\r\n' +
      "Cable gland M20,CB-3,,,\r\n";
    const imported = await upload("/api/v1/products/import", user.accessToken, csv, "p.csv");
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const rows = await queryRows<{ sku: string; aliases: string[]; lead_time_days: number | null }>(
      deps.db,
      sql`select sku, aliases, lead_time_days from products where user_id = ${user.userId}::uuid order by sku`,
    );
    expect(rows).toEqual([
      { sku: "CB-3", aliases: [], lead_time_days: null },
      { sku: "FL-50", aliases: ["Fluter", "投光灯", "proyector LED"], lead_time_days: 14 },
    ]);
    // A second import updates by SKU: new aliases replace, an empty cell keeps what is stored.
    const again = await upload(
      "/api/v1/products/import",
      user.accessToken,
      "sku,name,aliases,lead_time_days\r\nFL-50,LED Flood Light 50W,Fluter 50W,\r\n",
      "p.csv",
    );
    expect(again.status).toBe(200);
    const [fl] = await queryRows<{ aliases: string[]; lead_time_days: number }>(
      deps.db,
      sql`select aliases, lead_time_days from products where user_id = ${user.userId}::uuid and sku = 'FL-50'`,
    );
    expect(fl).toEqual({ aliases: ["Fluter 50W"], lead_time_days: 14 });

    const res = await app.request("/api/v1/products/export?format=csv", {
      headers: { Authorization: `Bearer ${user.accessToken}` },
    });
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "\uFEFFname,sku,price,currency,unit,moq,category,description,hs_code,lead_time_days,aliases",
    );
    expect(lines).toContain("LED Flood Light 50W,FL-50,9.00,USD,pcs,,,,,14,Fluter 50W");
  });
});
