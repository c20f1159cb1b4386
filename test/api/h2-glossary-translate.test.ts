import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingJobs } from "../../src/modules/jobs/background";
import { type FakeDeepl, startFakeDeepl } from "../fakes/deepl";
import { type ChatMessage, type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * The seller's glossary in translations (issue #24 item 2) and the reply suggestions' ids and
 * claims (items 3 and 6), against the DeepL fake speaking its glossary API and a scripted
 * OpenAI-compatible model.
 */

const ctx = await createTestContext();
const { app, deps } = ctx;
let deepl: FakeDeepl;
let gpt: FakeOpenAi;

const system = (messages: ChatMessage[]) =>
  messages.find((m) => m.role === "system")?.content ?? "";
const users = (messages: ChatMessage[]) =>
  messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");

beforeAll(async () => {
  [deepl, gpt] = await Promise.all([startFakeDeepl(), startFakeOpenAi("sk-gpt")]);
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "deepl",
    kind: "mt",
    baseUrl: deepl.url,
    apiKey: deepl.apiKey,
  });
  await addAiProvider(deps, {
    name: "gpt",
    kind: "llm",
    baseUrl: gpt.url,
    apiKey: "sk-gpt",
    models: ["gpt-small"],
  });
  await setAiRouting(deps, "translate", ["gpt"]);
});
afterAll(async () => {
  await Promise.all([deepl.close(), gpt.close()]);
});
beforeEach(() => {
  deepl.fail(null);
  deepl.translate((text, target) => `[${target}] ${text}`);
  gpt.fail(null);
});

const as = (s: Session) => ({ token: s.accessToken, ip: s.ip });

async function addTerm(s: Session, source_term: string, target_term: string, pair = ["en", "es"]) {
  const res = await call(app, "/api/v1/glossary", {
    ...as(s),
    method: "POST",
    json: { source_lang: pair[0], target_lang: pair[1], source_term, target_term },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** The caller's AI calls on record (written off the request's path: waited for). */
async function aiCalls(s: Session) {
  await pendingJobs();
  return queryRows<{
    task: string;
    provider: string;
    model: string;
    outcome: string;
    credits: number;
  }>(
    deps.db,
    sql`select task, provider, model, outcome, credits from ai_calls
        where user_id = ${s.userId}::uuid order by created_at, task, provider`,
  );
}

async function translate(s: Session, json: Record<string, unknown>) {
  const res = await call(app, "/api/v1/translate", { ...as(s), method: "POST", json });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("MT tier: the glossary goes to DeepL's glossary API", () => {
  it("creates the pair's glossary once, reuses it, and the output carries the target terms", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "PowerLite", "LuzPotente");
    await addTerm(seller, "Ocean Box", "Caja Océano");
    await addTerm(seller, "Zeta Cable", "Cable Zeta");
    const creates = deepl.glossaryCreates.length;

    const first = await translate(seller, {
      text: "The PowerLite ships in an ocean box.",
      target_lang: "es",
      source_lang: "en",
    });
    expect(first).toMatchObject({ tier: "mt", provider: "deepl" });
    expect(first.translation).toBe("[ES] The LuzPotente ships in an Caja Océano.");
    expect(first.glossary.mismatches).toEqual([]);
    expect(first.glossary.applied).toEqual(
      expect.arrayContaining([
        { source_term: "PowerLite", target_term: "LuzPotente" },
        { source_term: "Ocean Box", target_term: "Caja Océano" },
      ]),
    );
    expect(first.glossary.applied).toHaveLength(2);

    // One glossary of the whole pair, in DeepL's TSV.
    expect(deepl.glossaryCreates.length).toBe(creates + 1);
    const created = deepl.glossaryCreates.at(-1)!;
    expect(created).toMatchObject({ source_lang: "en", target_lang: "es", entries_format: "tsv" });
    expect(String(created.entries).split("\n").sort()).toEqual([
      "Ocean Box\tCaja Océano",
      "PowerLite\tLuzPotente",
      "Zeta Cable\tCable Zeta",
    ]);
    const sent = deepl.requests.at(-1)!;
    expect(sent.source_lang).toBe("EN");
    expect(sent.glossary_id).toBeDefined();
    expect(deepl.glossaries.has(sent.glossary_id!)).toBe(true);

    // The same entries: the same glossary, not created again.
    const second = await translate(seller, {
      text: "Is the PowerLite in stock?",
      target_lang: "es",
      source_lang: "en",
    });
    expect(second.translation).toBe("[ES] Is the LuzPotente in stock?");
    expect(deepl.glossaryCreates.length).toBe(creates + 1);
    expect(deepl.requests.at(-1)!.glossary_id).toBe(sent.glossary_id);

    // A changed glossary is a new provider glossary; the old one is deleted there.
    await addTerm(seller, "stock", "existencias");
    const third = await translate(seller, {
      text: "Is the PowerLite in stock?",
      target_lang: "es",
      source_lang: "en",
    });
    expect(third.translation).toBe("[ES] Is the LuzPotente in existencias?");
    expect(deepl.glossaryCreates.length).toBe(creates + 2);
    const newId = deepl.requests.at(-1)!.glossary_id;
    expect(newId).not.toBe(sent.glossary_id);
    expect(deepl.glossaryDeletes).toContain(sent.glossary_id);
    expect(deepl.glossaries.has(sent.glossary_id!)).toBe(false);
    const [cached] = await queryRows<{ glossary_id: string }>(
      deps.db,
      sql`select glossary_id from mt_glossaries m join org_members o on o.org_id = m.org_id
          where o.user_id = ${seller.userId}::uuid`,
    );
    expect(cached?.glossary_id).toBe(newId);
  });

  it("without a source language, the matched terms' language is sent with the glossary", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "SolarMax", "SolarMax Pro", ["en", "de"]);
    const out = await translate(seller, { text: "We want 50 SolarMax units", target_lang: "de" });
    expect(out.translation).toBe("[DE] We want 50 SolarMax Pro units");
    expect(deepl.requests.at(-1)).toMatchObject({ source_lang: "EN", target_lang: "DE" });
    expect(deepl.requests.at(-1)!.glossary_id).toBeDefined();
    expect(out.glossary).toEqual({
      applied: [{ source_term: "SolarMax", target_term: "SolarMax Pro" }],
      mismatches: [],
    });
  });

  it("reports a term the provider's output misses; a text with no term sends no glossary", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "AquaPure", "AguaPura");
    deepl.translate(() => "Texto sin el término");
    const out = await translate(seller, {
      text: "AquaPure filters",
      target_lang: "es",
      source_lang: "en",
    });
    expect(out.glossary).toEqual({
      applied: [],
      mismatches: [{ source_term: "AquaPure", target_term: "AguaPura" }],
    });
    const creates = deepl.glossaryCreates.length;
    const none = await translate(seller, {
      text: "Hello there",
      target_lang: "es",
      source_lang: "en",
    });
    expect(none.glossary).toEqual({ applied: [], mismatches: [] });
    expect(deepl.requests.at(-1)!.glossary_id).toBeUndefined();
    expect(deepl.glossaryCreates.length).toBe(creates);
  });

  it("a pair the provider has no glossaries for translates without one", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "PowerLite", "باور لايت", ["en", "ar"]);
    const out = await translate(seller, {
      text: "PowerLite lamp",
      target_lang: "ar",
      source_lang: "en",
    });
    expect(out.tier).toBe("mt");
    expect(deepl.requests.at(-1)!.glossary_id).toBeUndefined();
    expect(out.glossary.mismatches).toEqual([
      { source_term: "PowerLite", target_term: "باور لايت" },
    ]);
  });

  it("a glossary deleted on the provider is made anew; the call still translates", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "FlexiTube", "TuboFlexi");
    await translate(seller, { text: "FlexiTube", target_lang: "es", source_lang: "en" });
    const id = deepl.requests.at(-1)!.glossary_id!;
    deepl.glossaries.delete(id);
    const out = await translate(seller, {
      text: "FlexiTube",
      target_lang: "es",
      source_lang: "en",
    });
    expect(out.tier).toBe("mt");
    expect(out.translation).toBe("[ES] FlexiTube");
    expect(out.glossary.mismatches).toHaveLength(1);
    const again = await translate(seller, {
      text: "FlexiTube",
      target_lang: "es",
      source_lang: "en",
    });
    expect(again.translation).toBe("[ES] TuboFlexi");
    expect(deepl.requests.at(-1)!.glossary_id).not.toBe(id);
  });
});

describe("LLM tier: the terms in the prompt, checked, a miss repaired once", () => {
  const REPAIR = "You correct a translation";

  it("a term the model dropped is repaired by a second call and reported applied", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "PowerLite", "LuzPotente");
    await addTerm(seller, "Ocean Box", "Caja Océano");
    deepl.fail("http-500");
    gpt.reply((messages) =>
      system(messages).includes(REPAIR)
        ? JSON.stringify({ translation: "La LuzPotente viaja en una Caja Océano." })
        : JSON.stringify({
            source_lang: "en",
            translation: "La PowerLite viaja en una Caja Océano.",
          }),
    );
    const before = gpt.requests.length;
    const out = await translate(seller, {
      text: "The PowerLite ships in an ocean box.",
      target_lang: "es",
    });
    expect(out).toMatchObject({ tier: "llm", provider: "gpt" });
    expect(out.translation).toBe("La LuzPotente viaja en una Caja Océano.");
    expect(out.glossary.mismatches).toEqual([]);
    expect(out.glossary.applied).toEqual(
      expect.arrayContaining([
        { source_term: "PowerLite", target_term: "LuzPotente" },
        { source_term: "Ocean Box", target_term: "Caja Océano" },
      ]),
    );
    const calls = gpt.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(system(calls[0]!.messages)).toContain('"PowerLite" => "LuzPotente"');
    expect(system(calls[0]!.messages)).toContain('"Ocean Box" => "Caja Océano"');
    // The repair names only the missed term.
    expect(system(calls[1]!.messages)).toContain('"PowerLite" => "LuzPotente"');
    expect(system(calls[1]!.messages)).not.toContain("Caja Océano");
    expect(users(calls[1]!.messages)).toContain("La PowerLite viaja");
    const [row] = await queryRows<{ translated_text: string }>(
      deps.db,
      sql`select translated_text from translations where id = ${out.id}::uuid`,
    );
    expect(row?.translated_text).toBe("La LuzPotente viaja en una Caja Océano.");
    // Every attempt on record: DeepL's failure, the translation (carrying the credits), the repair.
    expect(await aiCalls(seller)).toEqual([
      { task: "translate", provider: "deepl", model: "deepl", outcome: "error", credits: 0 },
      { task: "translate", provider: "gpt", model: "gpt-small", outcome: "ok", credits: 1 },
      {
        task: "translate_glossary_repair",
        provider: "gpt",
        model: "gpt-small",
        outcome: "ok",
        credits: 0,
      },
    ]);
  });

  it("a term still missing after the repair is reported in mismatches", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "PowerLite", "LuzPotente");
    await addTerm(seller, "Ocean Box", "Caja Océano");
    deepl.fail("http-500");
    gpt.reply((messages) =>
      system(messages).includes(REPAIR)
        ? JSON.stringify({ translation: "La LuzPotente viaja en una caja marítima." })
        : JSON.stringify({
            source_lang: "en",
            translation: "La lámpara viaja en una caja marítima.",
          }),
    );
    const before = gpt.requests.length;
    const out = await translate(seller, {
      text: "The PowerLite ships in an ocean box.",
      target_lang: "es",
      source_lang: "en",
    });
    expect(gpt.requests.length - before).toBe(2);
    expect(out.translation).toBe("La LuzPotente viaja en una caja marítima.");
    expect(out.glossary).toEqual({
      applied: [{ source_term: "PowerLite", target_term: "LuzPotente" }],
      mismatches: [{ source_term: "Ocean Box", target_term: "Caja Océano" }],
    });
  });

  it("Chinese terms match without word boundaries", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "光伏板", "SunPanel", ["zh", "en"]);
    deepl.fail("http-500");
    gpt.reply(() =>
      JSON.stringify({ source_lang: "zh", translation: "We need 100 SunPanel units." }),
    );
    const before = gpt.requests.length;
    const out = await translate(seller, { text: "我们需要100块光伏板", target_lang: "en" });
    expect(gpt.requests.length - before).toBe(1);
    expect(out.glossary).toEqual({
      applied: [{ source_term: "光伏板", target_term: "SunPanel" }],
      mismatches: [],
    });
  });
});

describe("reply suggestions: ids and the catalogue's claims", () => {
  it("each reply has an id kept in the history; an unverified price is regenerated once, then flagged", async () => {
    const seller = await registerUser(app);
    const product = await call(app, "/api/v1/products", {
      ...as(seller),
      method: "POST",
      json: { name: "PowerLite", price: 1000, currency: "USD", moq: 100 },
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    deepl.fail(null);
    let replyCalls = 0;
    gpt.reply((messages) => {
      if (!system(messages).includes('"replies"')) {
        return JSON.stringify({ source_lang: "en", translation: "x" });
      }
      replyCalls++;
      if (replyCalls === 1) {
        return JSON.stringify({
          replies: [
            { text: "The PowerLite is USD 8.50 per piece.", translation: "8.50" },
            { text: "Thank you for your interest.", translation: "谢谢" },
            { text: "We will send details.", translation: "细节" },
          ],
        });
      }
      return JSON.stringify({
        replies: [
          { text: "The PowerLite is USD 10.00 per piece.", translation: "10.00" },
          { text: "The PowerLite is USD 7.00 per piece.", translation: "7.00" },
          { text: "We will send details.", translation: "细节" },
        ],
      });
    });
    const before = gpt.requests.length;
    const out = await translate(seller, {
      text: "What is the price of the PowerLite?",
      target_lang: "zh",
      source_lang: "en",
      with_replies: true,
    });
    expect(replyCalls).toBe(2);
    const replyRequests = gpt.requests
      .slice(before)
      .filter((r) => system(r.messages).includes('"replies"'));
    // The facts are in the prompt; the second call names the unverified figure.
    expect(system(replyRequests[0]!.messages)).toContain("USD 10.00");
    expect(users(replyRequests[1]!.messages)).toContain("USD 8.50");

    expect(out.replies).toHaveLength(3);
    const ids = out.replies.map((r: { id: string }) => r.id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
    expect(out.replies[0]).toMatchObject({ flagged: false });
    expect(out.replies[0].claims).toEqual([
      expect.objectContaining({ kind: "price", verified: true, product_id: product.body.id }),
    ]);
    expect(out.replies[1]).toMatchObject({ flagged: true });
    expect(out.replies[1].claims).toEqual([
      expect.objectContaining({ kind: "price", verified: false }),
    ]);
    expect(out.replies[2]).toMatchObject({ claims: [], flagged: false });

    const [row] = await queryRows<{ replies: { id: string; flagged: boolean }[] }>(
      deps.db,
      sql`select replies from translations where id = ${out.id}::uuid`,
    );
    expect(row?.replies.map((r) => r.id)).toEqual(ids);
    expect(row?.replies.map((r) => r.flagged)).toEqual([false, true, false]);
    const history = await call(app, `/api/v1/translations/${out.id}`, as(seller));
    expect(history.status).toBe(200);
    expect(history.body.replies.map((r: { id: string }) => r.id)).toEqual(ids);
  });

  it("the replies are asked to spell the seller's terms as the glossary does", async () => {
    const seller = await registerUser(app);
    await addTerm(seller, "PowerLite", "LuzPotente", ["en", "es"]);
    deepl.translate(() => "What is the price of the PowerLite?");
    gpt.reply(() =>
      JSON.stringify({ replies: [{ text: "La LuzPotente cuesta poco.", translation: "Cheap." }] }),
    );
    const before = gpt.requests.length;
    const out = await translate(seller, {
      text: "¿Cuál es el precio de la LuzPotente?",
      target_lang: "en",
      source_lang: "es",
      with_replies: true,
    });
    expect(out.replies).toHaveLength(1);
    const asked = gpt.requests.slice(before).find((r) => system(r.messages).includes('"replies"'));
    expect(system(asked!.messages)).toContain('"PowerLite" => "LuzPotente"');
  });
});
