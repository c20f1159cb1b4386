import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { adjustCredits } from "../../src/modules/credits/service";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
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
const { app, deps } = ctx;
let llm: FakeOpenAi;

// An app whose clock the tests set: events and contents land on chosen instants.
let current = new Date();
const clockApp = await ctx.makeApp({ clock: { now: () => current } });

beforeAll(async () => {
  llm = await startFakeOpenAi("sk-marketing");
});
afterAll(async () => {
  await llm.close();
});
beforeEach(async () => {
  current = new Date();
  llm.fail(null);
  llm.reply((messages) => `Generated for: ${messages.at(-1)?.content.slice(0, 40)}`);
  await clearAiProviders(deps);
  await setAiRouting(deps, "marketing", []);
  await addAiProvider(deps, {
    name: "writer",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["gpt-writer"],
  });
});

const balanceOf = async (user: Session) => {
  const answer = await typed(app).get("/api/v1/credits/balance", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer.body.balance;
};

async function storedContents(userId: string) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from marketing_contents where user_id = ${userId}`,
  );
  return row!.n;
}

async function createProduct(user: Session, overrides: Record<string, unknown> = {}) {
  const made = await typed(app).post("/api/v1/products", {
    token: user.accessToken,
    json: {
      name: "Solar Garden Light SG-20",
      sku: "SG-20",
      description: "IP65 waterproof solar garden light with a 2000 mAh battery",
      price: 1299,
      currency: "USD",
      moq: 500,
      specs: { Material: "ABS and aluminium", Runtime: "10 hours" },
      ...overrides,
    },
  });
  expectStatus(made, 201);
  return made.body.id;
}

const generate = (user: Session, json: unknown, headers: Record<string, string> = {}) =>
  call(app, "/api/v1/marketing/generate", { token: user.accessToken, json, headers });
type GenerateBody = NonNullable<
  ApiOptions<Operation<"/api/v1/marketing/generate", "post">>["json"]
>;
/** The success path, typed by the OpenAPI document (ADR 0095); `generate` stays for errors. */
const generated = (
  user: Session,
  json: GenerateBody,
  headers: Record<string, string> = {},
  target = app,
) => typed(target).post("/api/v1/marketing/generate", { token: user.accessToken, json, headers });

describe("POST /api/v1/marketing/generate", () => {
  it("writes material about the caller's product, stores it and charges 3 credits", async () => {
    const user = await registerUser(app);
    const productId = await createProduct(user);
    llm.reply(() => "Subject: Bright gardens\n\nDear buyer, meet the SG-20.");
    const answer = await generated(user, {
      kind: "email",
      product_id: productId,
      audience: "Garden centre chains in Germany",
      language: "de",
      tone: "persuasive",
    });
    expectStatus(answer, 201);
    const { body } = answer;
    expect(body).toEqual({
      id: expect.any(String),
      kind: "email",
      product_id: productId,
      audience: "Garden centre chains in Germany",
      language: "de",
      tone: "persuasive",
      content: "Subject: Bright gardens\n\nDear buyer, meet the SG-20.",
      provider: "writer",
      created_at: expect.any(String),
      credits_charged: 3,
      balance: 27,
    });
    expect(await balanceOf(user)).toBe(27);

    const sent = llm.requests.at(-1)!;
    expect(sent.model).toBe("gpt-writer");
    const prompt = sent.messages.find((m) => m.role === "user")!.content;
    expect(prompt).toContain("Name: Solar Garden Light SG-20");
    expect(prompt).toContain("SKU: SG-20");
    expect(prompt).toContain("IP65 waterproof solar garden light");
    expect(prompt).toContain("Price: 12.99 USD per pcs");
    expect(prompt).toContain("MOQ: 500 pcs");
    expect(prompt).toContain("Material: ABS and aluminium");
    expect(prompt).toContain("Audience: Garden centre chains in Germany");
    expect(prompt).toContain("Language: de");
    expect(prompt).toContain("Tone: persuasive");
    expect(prompt).toMatch(/e-mail/);
    expect(sent.messages[0]!.role).toBe("system");

    const [row] = await queryRows<{ content: string; provider: string; product_id: string }>(
      deps.db,
      sql`select content, provider, product_id from marketing_contents where id = ${body.id}`,
    );
    expect(row).toEqual({ content: body.content, provider: "writer", product_id: productId });
    const [log] = await queryRows<{ event: string; metadata: unknown }>(
      deps.db,
      sql`select event, metadata from usage_logs where user_id = ${user.userId} and event = 'marketing'`,
    );
    const metadata = typeof log!.metadata === "string" ? JSON.parse(log!.metadata) : log!.metadata;
    expect(metadata).toMatchObject({ credits: 3, provider: "writer", content_id: body.id });
  });

  it("answers 503 without a configured AI provider, before charging anything", async () => {
    await clearAiProviders(deps);
    const user = await registerUser(app);
    const asked = llm.requests.length;
    const res = await generate(user, { kind: "email", language: "en" });
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe("No AI provider is configured; nothing was charged");
    expect(await balanceOf(user)).toBe(30);
    const [ledger] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from credit_ledger
          where user_id = ${user.userId} and kind in ('consumption', 'refund')`,
    );
    expect(ledger!.n).toBe(0);
    expect(llm.requests).toHaveLength(asked);
  });

  it("works without a product, with the default tone", async () => {
    const user = await registerUser(app);
    const answer = await generated(user, { kind: "social_post", language: "en" });
    expectStatus(answer, 201);
    const { body } = answer;
    expect(body).toMatchObject({
      kind: "social_post",
      product_id: null,
      tone: null,
      audience: null,
    });
    const prompt = llm.requests.at(-1)!.messages.at(-1)!.content;
    expect(prompt).toContain("No specific product");
    expect(prompt).toContain("Tone: professional");
    expect(prompt).not.toContain("<product>");
  });

  it("answers 404 for another seller's product before charging anything", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const productId = await createProduct(owner);
    const before = llm.requests.length;
    const { status, body } = await generate(other, {
      kind: "ad_copy",
      product_id: productId,
      language: "en",
    });
    expect(status).toBe(404);
    expect(body.detail).toBe("Product not found");
    expect(llm.requests.length).toBe(before);
    expect(await balanceOf(other)).toBe(30);
    expect(await storedContents(other.userId)).toBe(0);
  });

  it("rejects bad input with 422 and charges nothing", async () => {
    const user = await registerUser(app);
    const bad = [
      { kind: "poem", language: "en" },
      { kind: "email", language: "english!" },
      { kind: "email" },
      { kind: "email", language: "en", tone: "angry" },
      { kind: "email", language: "en", audience: "x".repeat(201) },
      { kind: "email", language: "en", product_id: "not-a-uuid" },
      { kind: "email", language: "en", extra: true },
    ];
    for (const json of bad) {
      const { status, body } = await generate(user, json);
      expect(status, JSON.stringify(json)).toBe(422);
      expect(body.errors.length).toBeGreaterThan(0);
    }
    expect(await balanceOf(user)).toBe(30);
    expect(await storedContents(user.userId)).toBe(0);
  });

  it("needs authentication", async () => {
    const { status } = await call(app, "/api/v1/marketing/generate", {
      json: { kind: "email", language: "en" },
    });
    expect(status).toBe(401);
  });

  it("returns the credits and stores nothing when no provider answers", async () => {
    const user = await registerUser(app);
    llm.fail("http-500");
    const { status, body } = await generate(user, { kind: "email", language: "en" });
    expect(status).toBe(503);
    expect(body.detail).toMatch(/credits were returned/);
    expect(JSON.stringify(body)).not.toContain("server had an error");
    expect(await balanceOf(user)).toBe(30);
    expect(await storedContents(user.userId)).toBe(0);
    const history = await typed(app).get("/api/v1/credits/history", { token: user.accessToken });
    expectStatus(history, 200);
    expect(history.body.items.map((r) => [r.kind, r.delta])).toEqual([
      ["refund", 3],
      ["consumption", -3],
      ["registration_grant", 30],
    ]);
  });

  it("falls back to the next routed provider", async () => {
    const backup = await startFakeOpenAi("sk-backup");
    try {
      backup.reply(() => "From the backup");
      await addAiProvider(deps, {
        name: "backup",
        kind: "llm",
        baseUrl: backup.url,
        apiKey: "sk-backup",
        models: ["m"],
      });
      await setAiRouting(deps, "marketing", ["writer", "backup"]);
      llm.fail("http-429");
      const user = await registerUser(app);
      const answer = await generated(user, { kind: "email", language: "en" });
      expectStatus(answer, 201);
      const { body } = answer;
      expect(body).toMatchObject({ content: "From the backup", provider: "backup", balance: 27 });
    } finally {
      await backup.close();
    }
  });

  it("answers 402 with nothing written when the balance is short", async () => {
    const user = await registerUser(app);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -28,
      actorId: user.userId,
      reason: "test",
    });
    const before = llm.requests.length;
    const { status, body } = await generate(user, { kind: "email", language: "en" });
    expect(status).toBe(402);
    expect(body).toMatchObject({ required: 3, balance: 2 });
    expect(llm.requests.length).toBe(before);
    expect(await balanceOf(user)).toBe(2);
    expect(await storedContents(user.userId)).toBe(0);
  });

  it("charges an Idempotency-Key retry once and replays the first answer", async () => {
    const user = await registerUser(app);
    const headers = { "Idempotency-Key": `mk-${user.userId}` };
    const json = { kind: "whatsapp_message", language: "es", tone: "friendly" } as const;
    const before = llm.requests.length;
    const first = await generated(user, json, headers);
    const second = await generated(user, json, headers);
    expectStatus(first, 201);
    expectStatus(second, 201);
    expect(second.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(llm.requests.length).toBe(before + 1);
    expect(await balanceOf(user)).toBe(27);
    expect(await storedContents(user.userId)).toBe(1);
  });
});

type ContentsQuery = NonNullable<
  ApiOptions<Operation<"/api/v1/marketing/contents", "get">>["query"]
>;

describe("GET /api/v1/marketing/contents", () => {
  it("pages the caller's material newest first and filters by kind", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const base = Date.now() - 3_600_000;
    const ids: string[] = [];
    for (const [i, kind] of (["email", "ad_copy", "email"] as const).entries()) {
      current = new Date(base + i * 60_000);
      const answer = await generated(user, { kind, language: "en" }, {}, clockApp);
      expectStatus(answer, 201);
      ids.push(answer.body.id);
    }
    expectStatus(await generated(other, { kind: "email", language: "en" }), 201);

    const contents = async (who: Session, query: ContentsQuery) => {
      const answer = await typed(app).get("/api/v1/marketing/contents", {
        token: who.accessToken,
        query,
      });
      expectStatus(answer, 200);
      return answer;
    };
    const page1 = await contents(user, { size: 2 });
    expect(page1.body).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(page1.body.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.items[0]).toEqual({
      id: ids[2],
      kind: "email",
      product_id: null,
      audience: null,
      language: "en",
      tone: null,
      content: expect.any(String),
      provider: "writer",
      created_at: new Date(base + 120_000).toISOString(),
    });
    const page2 = await contents(user, { size: 2, page: 2 });
    expect(page2.body.items.map((i) => i.id)).toEqual([ids[0]]);

    const emails = await contents(user, { kind: "email" });
    expect(emails.body.total).toBe(2);
    expect(emails.body.items.map((i) => i.id)).toEqual([ids[2], ids[0]]);

    const theirs = await contents(other, {});
    expect(theirs.body.total).toBe(1);
    expect(theirs.body.items.map((i) => i.id)).not.toContain(ids[0]);

    const bad = await call(app, "/api/v1/marketing/contents?kind=poem", {
      token: user.accessToken,
    });
    expect(bad.status).toBe(422);
  });
});

describe("marketing events and stats", () => {
  const track = (user: Session, json: unknown, target = app) =>
    call(target, "/api/v1/marketing/events", { token: user.accessToken, json });
  /** An event that must be recorded: typed (ADR 0095), asserts 201. */
  const tracked = async (
    user: Session,
    json: { event_type: string; content: string },
    target = app,
  ) => {
    const answer = await typed(target).post("/api/v1/marketing/events", {
      token: user.accessToken,
      json,
    });
    expectStatus(answer, 201);
    return answer;
  };
  const statsOf = async (user: Session, query: { from?: string; to?: string } = {}) => {
    const answer = await typed(app).get("/api/v1/marketing/stats", {
      token: user.accessToken,
      query,
    });
    expectStatus(answer, 200);
    return answer;
  };

  it("records an event", async () => {
    const user = await registerUser(app);
    const { body } = await tracked(user, {
      event_type: "share",
      content: "https://x.example/1",
    });
    expect(body).toEqual({
      id: expect.any(String),
      event_type: "share",
      content: "https://x.example/1",
      created_at: expect.any(String),
    });
    const rows = await queryRows<{ event_type: string }>(
      deps.db,
      sql`select event_type from marketing_events where user_id = ${user.userId}`,
    );
    expect(rows).toEqual([{ event_type: "share" }]);
  });

  it("rejects bad events with 422 and stores nothing", async () => {
    const user = await registerUser(app);
    const bad = [
      { event_type: "Share", content: "x" },
      { event_type: "1click", content: "x" },
      { event_type: `a${"b".repeat(50)}`, content: "x" },
      { event_type: "has space", content: "x" },
      { event_type: "share" },
      { event_type: "share", content: "" },
      { event_type: "share", content: "x".repeat(2001) },
      { content: "x" },
    ];
    for (const json of bad) {
      expect((await track(user, json)).status, JSON.stringify(json)).toBe(422);
    }
    const [row] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from marketing_events where user_id = ${user.userId}`,
    );
    expect(row!.n).toBe(0);
    expect(
      (await call(app, "/api/v1/marketing/events", { json: { event_type: "a", content: "b" } }))
        .status,
    ).toBe(401);
  });

  it("counts the caller's events by type over whole UTC days", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const at = async (instant: string, event_type: string, who = user) => {
      current = new Date(instant);
      await tracked(who, { event_type, content: "c-1" }, clockApp);
    };
    await at("2026-01-09T23:59:59.999Z", "click"); // the day before the range
    await at("2026-01-10T00:00:00.000Z", "click");
    await at("2026-01-10T12:00:00.000Z", "share");
    await at("2026-01-11T08:00:00.000Z", "click");
    await at("2026-01-12T23:59:59.999Z", "order.placed");
    await at("2026-01-13T00:00:00.000Z", "share"); // the day after
    await at("2026-01-11T08:00:00.000Z", "click", other);

    const { body } = await statsOf(user, { from: "2026-01-10", to: "2026-01-12" });
    expect(body).toEqual({
      from: "2026-01-10",
      to: "2026-01-12",
      total: 4,
      by_type: [
        { event_type: "click", count: 2 },
        { event_type: "order.placed", count: 1 },
        { event_type: "share", count: 1 },
      ],
    });
    const oneDay = await statsOf(user, { from: "2026-01-13", to: "2026-01-13" });
    expect(oneDay.body).toEqual({
      from: "2026-01-13",
      to: "2026-01-13",
      total: 1,
      by_type: [{ event_type: "share", count: 1 }],
    });
    const empty = await statsOf(user, { from: "2025-01-01", to: "2025-01-31" });
    expect(empty.body).toMatchObject({ total: 0, by_type: [] });
  });

  it("defaults to the 30 days ending today", async () => {
    const user = await registerUser(app);
    await tracked(user, { event_type: "open", content: "x" });
    const { body } = await statsOf(user);
    const today = new Date().toISOString().slice(0, 10);
    expect(body.to).toBe(today);
    expect(body.from).toBe(
      new Date(Date.parse(today) - 29 * 86_400_000).toISOString().slice(0, 10),
    );
    expect(body.by_type).toEqual([{ event_type: "open", count: 1 }]);
  });

  it("rejects bad ranges with 422", async () => {
    const user = await registerUser(app);
    for (const query of [
      "?from=2026-02-01&to=2026-01-01",
      "?from=yesterday",
      "?to=2026-13-01",
      "?from=2999-01-01",
    ]) {
      const { status } = await call(app, `/api/v1/marketing/stats${query}`, {
        token: user.accessToken,
      });
      expect(status, query).toBe(422);
    }
  });
});
