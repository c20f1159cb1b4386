import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { chargeCredits } from "../../src/modules/credits/service";
import { type FakeDeepl, startFakeDeepl } from "../fakes/deepl";
import { type ChatMessage, type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
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

/** Real time, but strictly increasing, so the history's newest-first order is exact. */
let lastTick = 0;
const clock = {
  now: () => {
    lastTick = Math.max(Date.now(), lastTick + 1);
    return new Date(lastTick);
  },
};
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
let deepl: FakeDeepl;
let gpt: FakeOpenAi;
let backup: FakeOpenAi;
const ids: Record<string, string> = {};

const system = (messages: ChatMessage[]) =>
  messages.find((m) => m.role === "system")?.content ?? "";
const lastUser = (messages: ChatMessage[]) =>
  messages.filter((m) => m.role === "user").at(-1)?.content ?? "";

/** A well-behaved model: JSON translations, and JSON replies when asked for them. */
function goodModel(label: string) {
  return (messages: ChatMessage[]) =>
    system(messages).includes('"replies"')
      ? JSON.stringify({
          replies: [1, 2, 3].map((n) => ({
            text: `${label} reply ${n}`,
            translation: `回复 ${n}`,
          })),
        })
      : JSON.stringify({ source_lang: "FR", translation: `${label}: ${lastUser(messages)}` });
}

beforeAll(async () => {
  [deepl, gpt, backup] = await Promise.all([
    startFakeDeepl(),
    startFakeOpenAi("sk-gpt"),
    startFakeOpenAi("sk-backup"),
  ]);
  await clearAiProviders(deps);
  ids.deepl = await addAiProvider(deps, {
    name: "deepl",
    kind: "mt",
    baseUrl: deepl.url,
    apiKey: deepl.apiKey,
  });
  ids.gpt = await addAiProvider(deps, {
    name: "gpt",
    kind: "llm",
    baseUrl: gpt.url,
    apiKey: "sk-gpt",
    models: ["gpt-small"],
  });
  ids.backup = await addAiProvider(deps, {
    name: "backup",
    kind: "llm",
    baseUrl: backup.url,
    apiKey: "sk-backup",
    models: ["backup-model"],
  });
  await setAiRouting(deps, "translate", ["gpt", "backup"]);
});
afterAll(async () => {
  await Promise.all([deepl.close(), gpt.close(), backup.close()]);
});

beforeEach(async () => {
  deepl.fail(null);
  gpt.fail(null);
  backup.fail(null);
  deepl.translate((text, target) => `[${target}] ${text}`);
  gpt.reply(goodModel("gpt"));
  backup.reply(goodModel("backup"));
  await queryRows(deps.db, sql`delete from translation_quotas`);
});

async function setQuota(provider: string, charLimit: number, used = 0) {
  await queryRows(
    deps.db,
    sql`insert into translation_quotas (provider_id, period, char_limit, chars_used, period_start)
        values (${ids[provider]!}, 'day', ${charLimit}, ${used}, ${deps.clock.now().toISOString()}::timestamptz)`,
  );
}

async function quotaUsed(provider: string) {
  const [row] = await queryRows<{ chars_used: number }>(
    deps.db,
    sql`select chars_used from translation_quotas where provider_id = ${ids[provider]!}`,
  );
  return row?.chars_used;
}

async function balanceOf(user: Session) {
  const res = await typed(app).get("/api/v1/credits/balance", { token: user.accessToken });
  expectStatus(res, 200);
  return res.body.balance;
}

async function storedCount(user: Session) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from translations where user_id = ${user.userId}`,
  );
  return row!.n;
}

const translate = (user: Session, json: unknown, headers: Record<string, string> = {}) =>
  call(app, "/api/v1/translate", { token: user.accessToken, json, headers });
type TranslateBody = NonNullable<ApiOptions<Operation<"/api/v1/translate", "post">>["json"]>;
/** The success path, typed by the OpenAPI document (ADR 0095); `translate` stays for errors. */
const translated = (user: Session, json: TranslateBody, headers: Record<string, string> = {}) =>
  typed(app).post("/api/v1/translate", { token: user.accessToken, json, headers });
const stored = (user: Session, id: string) =>
  typed(app).get("/api/v1/translations/{id}", { token: user.accessToken, params: { id } });

describe("POST /api/v1/translate", () => {
  it("uses machine translation first, charges the cost and stores the translation", async () => {
    const user = await registerUser(app);
    await setQuota("deepl", 1000);
    const gptCalls = gpt.requests.length;
    const res = await translated(user, { text: "  Bonjour  ", target_lang: "ZH" });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      translation: "[ZH] Bonjour",
      source_lang: "en",
      target_lang: "zh",
      provider: "deepl",
      tier: "mt",
      credits_charged: 1,
      balance: 29,
    });
    expect(res.body).not.toHaveProperty("replies");
    expect(deepl.requests.at(-1)).toMatchObject({ text: ["Bonjour"], target_lang: "ZH" });
    expect(gpt.requests.length).toBe(gptCalls);
    expect(await quotaUsed("deepl")).toBe(7);
    expect(await balanceOf(user)).toBe(29);
    const kept = await stored(user, res.body.id);
    expectStatus(kept, 200);
    expect(kept.body).toMatchObject({
      id: res.body.id,
      source_text: "Bonjour",
      translation: "[ZH] Bonjour",
      source_lang: "en",
      target_lang: "zh",
      replies: [],
      provider: "deepl",
      tier: "mt",
      chars: 7,
    });
    const [log] = await queryRows<{ metadata: Record<string, unknown> }>(
      deps.db,
      sql`select metadata from usage_logs where user_id = ${user.userId} and event = 'translate'`,
    );
    expect(log?.metadata).toMatchObject({ credits: 1, provider: "deepl", tier: "mt", chars: 7 });
  });

  it("normalises language codes and passes the source language on", async () => {
    const user = await registerUser(app);
    const res = await translated(user, { text: "Olá", target_lang: "en_gb", source_lang: "PT-br" });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ target_lang: "en-GB", source_lang: "pt-BR", tier: "mt" });
    expect(deepl.requests.at(-1)).toMatchObject({ target_lang: "EN-GB", source_lang: "PT" });
  });

  it("counts characters as code points against the quota", async () => {
    const user = await registerUser(app);
    await setQuota("deepl", 100);
    const res = await translated(user, { text: "你好😀", target_lang: "en" });
    expectStatus(res, 200);
    expect(res.body.source_lang).toBe("zh");
    expect(await quotaUsed("deepl")).toBe(3);
  });

  it("falls to the LLM tier when the MT provider's quota is used up", async () => {
    const user = await registerUser(app);
    await setQuota("deepl", 10, 8);
    await setQuota("gpt", 1000);
    const deeplCalls = deepl.requests.length;
    const res = await translated(user, { text: "Bonjour", target_lang: "zh" });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      translation: "gpt: Bonjour",
      source_lang: "fr",
      provider: "gpt",
      tier: "llm",
      balance: 29,
    });
    expect(deepl.requests.length).toBe(deeplCalls);
    expect(await quotaUsed("deepl")).toBe(8);
    expect(await quotaUsed("gpt")).toBe(7);
    const prompt = gpt.requests.at(-1)!;
    expect(prompt.model).toBe("gpt-small");
    expect(system(prompt.messages)).toMatch(/Output ONLY a JSON object/);
    expect(system(prompt.messages)).toMatch(/code zh/);
  });

  it("skips an LLM provider over its own quota and keeps the routing order", async () => {
    const user = await registerUser(app);
    deepl.fail("http-500");
    await setQuota("gpt", 5);
    const gptCalls = gpt.requests.length;
    const res = await translated(user, { text: "Bonjour", target_lang: "zh" });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ provider: "backup", tier: "llm" });
    expect(gpt.requests.length).toBe(gptCalls);
    expect(await quotaUsed("gpt")).toBe(0);
  });

  for (const mode of ["http-456", "http-500"] as const) {
    it(`moves to the next tier when MT fails (${mode}) and gives its quota back`, async () => {
      const user = await registerUser(app);
      await setQuota("deepl", 1000, 100);
      deepl.fail(mode);
      const deeplCalls = deepl.requests.length;
      const res = await translated(user, { text: "Bonjour", target_lang: "zh" });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ tier: "llm", provider: "gpt", balance: 29 });
      expect(deepl.requests.length).toBe(deeplCalls + 1);
      expect(await quotaUsed("deepl")).toBe(100);
    });
  }

  it("accepts a bare-text LLM answer and moves on from an unparseable JSON one", async () => {
    const user = await registerUser(app);
    deepl.fail("http-500");
    gpt.reply(() => '{"translation": ');
    backup.reply(() => "你好");
    const res = await translated(user, { text: "Hello", target_lang: "zh", source_lang: "en" });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ translation: "你好", provider: "backup", source_lang: "en" });
  });

  it("says the quota is used up, with its limit and reset, when every provider is over it", async () => {
    const user = await registerUser(app);
    await setQuota("deepl", 10, 8);
    await setQuota("gpt", 10, 10);
    await setQuota("backup", 5);
    const res = await translate(user, { text: "Bonjour", target_lang: "zh" });
    expect(res.status).toBe(503);
    expect(res.body.reason).toBe("quota_exhausted");
    expect(res.body.detail).toMatch(/translation quota is used up \(\d+ characters a day\)/);
    expect(res.body.detail).not.toMatch(/unavailable/);
    expect(Number(res.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await balanceOf(user)).toBe(30);
  });

  it("answers 503 when no provider can translate, refunds and releases every quota", async () => {
    const user = await registerUser(app);
    await setQuota("deepl", 1000);
    await setQuota("gpt", 1000);
    await setQuota("backup", 1000);
    deepl.fail("http-500");
    gpt.fail("http-500");
    backup.fail("non-json");
    const res = await translate(user, { text: "Bonjour", target_lang: "zh" });
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/credits were returned/);
    expect(JSON.stringify(res.body)).not.toMatch(/server had an error|Internal error|maintenance/);
    expect(await balanceOf(user)).toBe(30);
    expect(await storedCount(user)).toBe(0);
    expect(await quotaUsed("deepl")).toBe(0);
    expect(await quotaUsed("gpt")).toBe(0);
    expect(await quotaUsed("backup")).toBe(0);
  });

  it("answers 402 without credits and writes nothing", async () => {
    const user = await registerUser(app);
    for (let i = 0; i < 15; i++) {
      await chargeCredits(deps, { userId: user.userId, operation: "quotation_from_inquiry" });
    }
    await setQuota("deepl", 1000);
    const deeplCalls = deepl.requests.length;
    const res = await translate(user, { text: "Bonjour", target_lang: "zh" });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ required: 1, balance: 0 });
    expect(await storedCount(user)).toBe(0);
    expect(await quotaUsed("deepl")).toBe(0);
    expect(deepl.requests.length).toBe(deeplCalls);
  });

  it("charges an idempotent retry once and replays the first answer", async () => {
    const user = await registerUser(app);
    const headers = { "Idempotency-Key": `tr-${user.userId}` };
    const first = await translated(user, { text: "Bonjour", target_lang: "zh" }, headers);
    const again = await translated(user, { text: "Bonjour", target_lang: "zh" }, headers);
    expectStatus(first, 200);
    expectStatus(again, 200);
    expect(again.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect(await balanceOf(user)).toBe(29);
    expect(await storedCount(user)).toBe(1);
    const other = await translate(user, { text: "Salut", target_lang: "zh" }, headers);
    expect(other.status).toBe(422);
  });

  it("rejects bad input with 422 and writes nothing", async () => {
    const user = await registerUser(app);
    const bodies: [unknown, string][] = [
      [{ text: "   ", target_lang: "zh" }, "text"],
      [{ text: "a".repeat(5001), target_lang: "zh" }, "text"],
      [{ text: 42, target_lang: "zh" }, "text"],
      [{ text: "Bonjour" }, "target_lang"],
      [{ text: "Bonjour", target_lang: "chinese" }, "target_lang"],
      [{ text: "Bonjour", target_lang: "zh", source_lang: "f1" }, "source_lang"],
      [{ text: "Bonjour", target_lang: "zh", with_replies: "yes" }, "with_replies"],
      [{ text: "Bonjour", target_lang: "zh", extra: 1 }, ""],
    ];
    for (const [json, field] of bodies) {
      const res = await translate(user, json);
      expect(res.status, JSON.stringify(json).slice(0, 60)).toBe(422);
      if (field) {
        expect(res.body.errors.map((e: { loc: string[] }) => e.loc.join("."))).toContain(
          `body.${field}`,
        );
      }
    }
    const ok = await translated(user, { text: "😀".repeat(5000), target_lang: "zh" });
    expectStatus(ok, 200);
    expect(await balanceOf(user)).toBe(29);
    expect(await storedCount(user)).toBe(1);
  });

  it("needs a token", async () => {
    const res = await call(app, "/api/v1/translate", { json: { text: "x", target_lang: "zh" } });
    expect(res.status).toBe(401);
  });
});

describe("reply suggestions", () => {
  it("returns 3 replies in the buyer's language with their translations", async () => {
    const user = await registerUser(app);
    const res = await translated(user, {
      text: "Bonjour, quel est le prix ?",
      target_lang: "zh",
      with_replies: true,
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ tier: "mt", credits_charged: 1, balance: 29 });
    expect(res.body.replies).toEqual(
      // Each with an id and its claims (issue #24; test/api/h2-glossary-translate.test.ts).
      [1, 2, 3].map((n) =>
        expect.objectContaining({ text: `gpt reply ${n}`, translation: `回复 ${n}` }),
      ),
    );
    expect(res.body).not.toHaveProperty("replies_error");
    const prompt = gpt.requests.at(-1)!;
    expect(system(prompt.messages)).toMatch(/code en \(the buyer's language\)/);
    expect(system(prompt.messages)).toMatch(/code zh \(the seller's language\)/);
    expect(lastUser(prompt.messages)).toContain("[ZH] Bonjour, quel est le prix ?");
    const kept = await stored(user, res.body.id);
    expectStatus(kept, 200);
    expect(kept.body.replies).toHaveLength(3);
  });

  it("retries once with the next provider when the answer is not the JSON asked for", async () => {
    const user = await registerUser(app);
    gpt.reply((messages) =>
      system(messages).includes('"replies"') ? "Sure! Here are some replies: ..." : "x",
    );
    backup.reply((messages) =>
      system(messages).includes('"replies"')
        ? `\`\`\`json\n${JSON.stringify({ replies: [{ text: "Merci", translation: "谢谢" }] })}\n\`\`\``
        : "x",
    );
    const res = await translated(user, { text: "Bonjour", target_lang: "zh", with_replies: true });
    expectStatus(res, 200);
    expect(res.body.replies).toEqual([
      expect.objectContaining({ text: "Merci", translation: "谢谢", claims: [] }),
    ]);
  });

  it("drops placeholder replies, and takes an answer of nothing else as unusable (issue #24)", async () => {
    const user = await registerUser(app);
    const replies = (texts: string[]) =>
      JSON.stringify({ replies: texts.map((text) => ({ text, translation: "译文" })) });
    gpt.reply((messages) =>
      system(messages).includes('"replies"') ? replies(["...", "[Your reply here]"]) : "x",
    );
    backup.reply((messages) =>
      system(messages).includes('"replies"')
        ? replies(["Merci, le prix est en route.", "[Reply]", "Bonjour, [Your name]"])
        : "x",
    );
    const res = await translated(user, { text: "Bonjour", target_lang: "zh", with_replies: true });
    expectStatus(res, 200);
    expect(res.body.replies!.map((r: { text: string }) => r.text)).toEqual([
      "Merci, le prix est en route.",
    ]);
  });

  it("returns the translation with replies: [] when no reply can be produced", async () => {
    const user = await registerUser(app);
    gpt.reply(() => "not json at all");
    backup.reply(() => '{"replies": [{"text": 1}]}');
    const res = await translated(user, { text: "Bonjour", target_lang: "zh", with_replies: true });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      translation: "[ZH] Bonjour",
      replies: [],
      replies_error: "unavailable",
      credits_charged: 1,
      balance: 29,
    });
    expect(await storedCount(user)).toBe(1);
  });
});

describe("translation history", () => {
  it("pages the caller's translations newest first and hides other users'", async () => {
    const [alice, bob] = await Promise.all([registerUser(app), registerUser(app)]);
    const made: string[] = [];
    for (const text of ["one", "two", "three"]) {
      const res = await translated(alice, { text, target_lang: "zh" });
      expectStatus(res, 200);
      made.push(res.body.id);
    }
    const bobs = await translated(bob, { text: "bob", target_lang: "zh" });
    expectStatus(bobs, 200);
    const list = (user: Session, query: { size?: number; page?: number } = {}) =>
      typed(app).get("/api/v1/translations", { token: user.accessToken, query });
    const page1 = await list(alice, { size: 2 });
    expectStatus(page1, 200);
    expect(page1.body).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(page1.body.items.map((t) => t.source_text)).toEqual(["three", "two"]);
    const page2 = await list(alice, { size: 2, page: 2 });
    expectStatus(page2, 200);
    expect(page2.body.items.map((t) => t.id)).toEqual([made[0]]);
    const bobList = await list(bob);
    expectStatus(bobList, 200);
    expect(bobList.body.items.map((t) => t.id)).toEqual([bobs.body.id]);
    const foreign = await call(app, `/api/v1/translations/${made[0]}`, { token: bob.accessToken });
    expect(foreign.status).toBe(404);
    const bad = await call(app, "/api/v1/translations/not-a-uuid", { token: bob.accessToken });
    expect(bad.status).toBe(422);
    const badSize = await call(app, "/api/v1/translations?size=0", { token: bob.accessToken });
    expect(badSize.status).toBe(422);
    expect((await call(app, "/api/v1/translations")).status).toBe(401);
  });
});
