import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import { QUOTATION_ITEM_TEXT_MAX, QUOTATION_ITEMS_MAX } from "../../src/modules/quotations/schemas";
import { createDocumentPool } from "../../src/runtime/node/document-pool";
import { call, randomIp } from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * Issue 20: one quotation froze the server. A guest's item with a 1,200-character description
 * without a space took 24.5 s to export as PDF while /health waited behind it (the layout
 * re-measured the word once per character it trimmed); 2,000 characters took 192 s and a
 * 500-item quotation held the process for more than 16 minutes.
 *
 * Now the layout is linear, documents are made on the Node pool's worker threads
 * (src/runtime/node/document-pool.ts) within DOCUMENT_TIME_BUDGET_MS, and the schemas bound a
 * quotation to what a real one needs. These run through the real app, with the pool the Node
 * server uses, on both databases.
 */

// One thread, so the warm-up below warms the thread that makes the timed documents.
const pool = createDocumentPool({ timeBudgetMs: 10_000, threads: 1 });
const ctx = await createTestContext({ runtime: { documents: pool } });
afterAll(() => pool.close());

interface Guest {
  token: string;
  userId: string;
}

async function guest(app: App): Promise<Guest> {
  const res = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
  expect(res.status).toBe(201);
  return { token: res.body.access_token, userId: res.body.user.id };
}

async function createQuotation(app: App, who: Guest, items: unknown[], notes?: string) {
  const res = await call(app, "/api/v1/quotations", {
    token: who.token,
    json: { currency: "USD", items, ...(notes ? { notes } : {}) },
  });
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
  return res.body as { id: string; quote_no: string };
}

/** Exports through the app; the elapsed time is the whole request, the pool's round trip included. */
async function exportDocument(app: App, who: Guest, id: string, format: "pdf" | "xlsx" = "pdf") {
  const started = performance.now();
  const res = await app.request(`/api/v1/quotations/${id}/export?format=${format}`, {
    headers: { Authorization: `Bearer ${who.token}` },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes, ms: performance.now() - started };
}

const item = (name: string, description: string | null = null) => ({
  name,
  description,
  quantity: 100,
  unit_price: 1299,
});

/** Ordinary product copy, ~420 characters, varied so no line repeats. */
const copy = (n: number) =>
  `Model ${n}: double wall stainless steel, vacuum insulated, keeps drinks hot for 12 hours and cold for 24. Powder coated finish, ${n % 12} colours; custom logo by laser engraving or silk screen. Packing: 1 pc per white box, 48 pcs per 5-ply carton. 双层真空不锈钢保温杯，可定制logo。MOQ 500 pcs per colour; lead time 30 days after deposit; sample 7 days, free of charge, freight collect.`;

describe("heavy quotation documents", () => {
  it("exports each reproduction in under a second: 1,200 and 2,000 characters without a space, long CJK text, the most items allowed", async () => {
    const { app } = ctx;
    const seller = await guest(app);
    // The pool's first documents start its thread, read the font, import pdf-lib and exceljs
    // and warm the JIT: paid once per thread, as on a server that has exported before (the
    // bench's warm-up too), not per document, so it is not what is timed here.
    const warm = await createQuotation(
      app,
      seller,
      Array.from({ length: 50 }, (_, i) => item(`Warm-up ${i}`, copy(i))),
    );
    for (let round = 0; round < 2; round++) {
      expect((await exportDocument(app, seller, warm.id)).res.status).toBe(200);
      expect((await exportDocument(app, seller, warm.id, "xlsx")).res.status).toBe(200);
    }

    // The issue's inputs finish in under a second; the most items allowed (200 with their copy,
    // ~940 ms on a loaded 2-core machine) in under two: its bound is for a document of ten pages.
    const cases: [string, unknown[], string?, number?][] = [
      ["1,200 characters, no space", [item("Cup", "A".repeat(1200))]],
      ["2,000 characters, no space", [item("Cup", "W".repeat(2000))]],
      [
        "5,000 CJK characters and a 300-character CJK name",
        [item("不锈钢保温杯".repeat(50), "不锈钢保温杯双层真空".repeat(500))],
        "交货期三十天".repeat(800),
      ],
      [
        `${QUOTATION_ITEMS_MAX} items of ordinary product copy`,
        Array.from({ length: QUOTATION_ITEMS_MAX }, (_, i) => item(`Vacuum cup ${i + 1}`, copy(i))),
        undefined,
        2000,
      ],
    ];
    for (const [label, items, notes, boundMs = 1000] of cases) {
      const q = await createQuotation(app, seller, items, notes);
      for (const format of ["pdf", "xlsx"] as const) {
        // The best of three: a time bound on the work, not on what else the machine runs (the
        // layout before took 24 s for the first case and 192 s for the second, every time).
        const times: number[] = [];
        for (let attempt = 0; attempt < 3; attempt++) {
          const { res, bytes, ms } = await exportDocument(app, seller, q.id, format);
          expect(res.status, `${label} (${format})`).toBe(200);
          expect(Number(res.headers.get("Content-Length"))).toBe(bytes.byteLength);
          const magic = format === "pdf" ? "%PDF-" : "PK";
          expect(new TextDecoder().decode(bytes.subarray(0, magic.length))).toBe(magic);
          times.push(ms);
        }
        const best = Math.min(...times);
        expect(best, `${label} (${format}): ${times.map(Math.round).join(", ")} ms`).toBeLessThan(
          boundMs,
        );
      }
    }
  });

  it("refuses a quotation beyond the caps with a 422 that says which and how much", async () => {
    const { app } = ctx;
    const seller = await guest(app);
    const post = (json: unknown) => call(app, "/api/v1/quotations", { token: seller.token, json });

    const tooMany = await post({
      currency: "USD",
      items: Array.from({ length: QUOTATION_ITEMS_MAX + 1 }, (_, i) => item(`Item ${i}`)),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toContainEqual(
      expect.objectContaining({
        loc: ["body", "items"],
        msg: "At most 200 items in one quotation",
      }),
    );

    const longDescription = await post({ currency: "USD", items: [item("Cup", "x".repeat(5001))] });
    expect(longDescription.status).toBe(422);
    expect(longDescription.body.errors[0].loc).toEqual(["body", "items", 0, "description"]);

    // Each item within its own bounds, the quotation's text beyond what one document holds.
    const tooMuchText = await post({
      currency: "USD",
      items: Array.from({ length: 21 }, (_, i) => item(`Item ${i}`, "y".repeat(5000))),
    });
    expect(tooMuchText.status).toBe(422);
    expect(tooMuchText.body.detail).toMatch(
      /^The items' names and descriptions come to \d+ characters; a quotation holds at most 100000/,
    );
    expect(QUOTATION_ITEM_TEXT_MAX).toBe(100_000);
  });

  it("counts a product's description where an item takes it, and takes back what it stored", async () => {
    const { app } = ctx;
    const seller = await guest(app);
    // Products hold descriptions of up to 5,000 characters (and imports write the same).
    const product = await call(app, "/api/v1/products", {
      token: seller.token,
      json: { name: "Vacuum cup", price: 1299, currency: "USD", description: "z".repeat(5000) },
    });
    expect(product.status).toBe(201);
    const lines = (n: number) =>
      Array.from({ length: n }, () => ({ product_id: product.body.id, quantity: 10 }));

    const over = await call(app, "/api/v1/quotations", {
      token: seller.token,
      json: { currency: "USD", items: lines(20) },
    });
    expect(over.status).toBe(422);
    expect(over.body.detail).toMatch(/come to 100200 characters/);

    const q = await createQuotation(app, seller, lines(19));
    const stored = await call(app, `/api/v1/quotations/${q.id}`, { token: seller.token });
    expect(stored.body.items[0].description).toHaveLength(5000);
    // The items as the API returned them go back in unchanged: no cap refuses stored data.
    const again = await call(app, `/api/v1/quotations/${q.id}`, {
      method: "PATCH",
      token: seller.token,
      json: {
        items: stored.body.items.map(
          (i: { name: string; description: string; quantity: number; unit_price: number }) => ({
            name: i.name,
            description: i.description,
            quantity: i.quantity,
            unit_price: i.unit_price,
          }),
        ),
      },
    });
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(200);
  });

  it("answers 503 with a detail past the time budget, ends that thread and keeps serving", async () => {
    // One thread, so the document after the refused one can only be made if that thread was
    // ended: were it still drawing, the next document would wait behind it past its budget.
    // The budget is a small share of what the document below takes (some 2,600 pages of text,
    // where 500 items already took several seconds), so it runs out whatever the machine's speed.
    const budgetPool = createDocumentPool({ timeBudgetMs: 2_000, threads: 1 });
    const { deps, app } = await ctx.makeInstance({ documents: budgetPool });
    try {
      const seller = await guest(app);
      const small = await createQuotation(app, seller, [item("Cup", "Double wall")]);
      expect((await exportDocument(app, seller, small.id)).res.status).toBe(200);

      // A quotation stored before the caps (2,000 items of 5,000 characters without a space):
      // the schemas refuse it today, but the database may still hold one like it.
      const legacy = await createQuotation(app, seller, [item("Legacy")]);
      await deps.db.execute(sql`
        insert into quotation_items (quotation_id, position, name, description, quantity, unit_price, line_total)
        select ${legacy.id}::uuid, n + 1, 'Legacy item ' || n, repeat('L', 5000), 1, 1, 1
        from generate_series(1, 1999) as n`);

      const heavy = exportDocument(app, seller, legacy.id);
      // The request thread stays free while the document is being drawn.
      const healthMs: number[] = [];
      const pending = { done: false };
      void heavy.finally(() => (pending.done = true));
      while (!pending.done) {
        const started = performance.now();
        const health = await app.request("/health");
        healthMs.push(performance.now() - started);
        expect(health.status).toBe(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      const { res, ms } = await heavy;
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
      const body = JSON.parse(new TextDecoder().decode((await heavy).bytes));
      expect(body.detail).toBe(
        "The document could not be made within 2 s; try again shortly, or shorten or split the quotation",
      );
      expect(ms).toBeGreaterThanOrEqual(1_900);
      expect(ms).toBeLessThan(6_000);
      // Before, /health waited for the whole document. The median is the bound; a single slow
      // answer is the machine's other load (the test runs beside a thread drawing flat out).
      expect(healthMs.length).toBeGreaterThan(10);
      const sorted = [...healthMs].sort((a, b) => a - b);
      expect(sorted[Math.floor(sorted.length / 2)]!).toBeLessThan(100);
      expect(sorted.at(-1)!).toBeLessThan(2000);

      // A fresh thread makes the next document within the same budget.
      const next = await exportDocument(app, seller, small.id);
      expect(next.res.status).toBe(200);
      expect((await exportDocument(app, seller, small.id, "xlsx")).res.status).toBe(200);
    } finally {
      await budgetPool.close();
    }
  }, 60_000);

  it("refuses a document at once when the queue is full, with a detail", async () => {
    const busyPool = createDocumentPool({ timeBudgetMs: 20_000, threads: 1, maxQueue: 1 });
    const { app } = await ctx.makeInstance({ documents: busyPool });
    try {
      const seller = await guest(app);
      const q = await createQuotation(app, seller, [item("Cup", "Q".repeat(2000))]);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => exportDocument(app, seller, q.id)),
      );
      const statuses = answers.map((a) => a.res.status);
      expect(statuses).toContain(200);
      expect(statuses).toContain(503);
      for (const answer of answers.filter((a) => a.res.status === 503)) {
        expect(JSON.parse(new TextDecoder().decode(answer.bytes)).detail).toBe(
          "Too many documents are being made right now; try again shortly",
        );
      }
    } finally {
      await busyPool.close();
    }
  }, 60_000);
});
