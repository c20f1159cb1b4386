import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { productFactsFor } from "../../src/modules/ai/claims";
import { type ChatMessage, type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { joinOrg } from "../support/orgs";

// Issue #24 item 3 (ADR 0110): a follow-up draft is written with the facts of the products the
// customer's record mentions; every price, MOQ, lead time and spec in it is checked against the
// catalogue, regenerated once when one is not the seller's, then flagged. An empty, placeholder
// or prompt-echo draft is a failed generation: 503 and never charged.

const ctx = await createTestContext();
const { app, deps } = ctx;
let first: FakeOpenAi;
let second: FakeOpenAi;

beforeAll(async () => {
  [first, second] = await Promise.all([startFakeOpenAi("sk-h3-a"), startFakeOpenAi("sk-h3-b")]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});
beforeEach(async () => {
  for (const fake of [first, second]) {
    fake.fail(null);
    fake.reply(() => "not configured");
  }
  await clearAiProviders(deps);
  for (const [name, fake] of [
    ["first", first],
    ["second", second],
  ] as const) {
    await addAiProvider(deps, {
      name,
      kind: "llm",
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      models: [`${name}-model`],
    });
  }
  await setAiRouting(deps, "followup_draft", ["first"]);
});

const lastUser = (messages: ChatMessage[]) =>
  messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
const isCorrection = (messages: ChatMessage[]) =>
  lastUser(messages).includes("not in the seller's catalogue facts");

async function balanceOf(user: Session): Promise<number> {
  const { status, body } = await call(app, "/api/v1/credits/balance", { token: user.accessToken });
  expect(status).toBe(200);
  return body.balance as number;
}

async function ledgerOf(user: Session) {
  return queryRows<{ kind: string; delta: number }>(
    deps.db,
    sql`select kind, delta from credit_ledger
        where user_id = ${user.userId} and operation = 'followup_draft' order by created_at, id`,
  );
}

async function createProduct(user: Session, json: Record<string, unknown>): Promise<string> {
  const { status, body } = await call(app, "/api/v1/products", { token: user.accessToken, json });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.id as string;
}

/** A seller with a catalogue of two products and a customer whose notes name the panel. */
async function seller() {
  const user = await registerUser(app);
  const panelId = await createProduct(user, {
    name: "LED Panel Light 600x600 40W",
    sku: "LP-6060",
    price: 1250,
    currency: "USD",
    moq: 500,
    lead_time_days: 30,
    aliases: ["Panelleuchte"],
    specs: { power: "40W", rating: "IP44" },
  });
  const boltId = await createProduct(user, {
    name: "Hex Bolt M8",
    sku: "HB-M8",
    price: 8,
    currency: "EUR",
    moq: 10000,
  });
  const { status, body } = await call(app, "/api/v1/customers", {
    token: user.accessToken,
    json: {
      company: "Hamburg Lighting GmbH",
      contact_name: "Anna Weber",
      country: "Germany",
      status: "negotiating",
      notes: "Asked for a quote on LP-6060 panels for a school project",
    },
  });
  expect(status).toBe(201);
  return { user, panelId, boltId, customerId: body.id as string };
}

const draft = (user: Session, customerId: string, json: unknown = {}) =>
  call(app, `/api/v1/customers/${customerId}/followups/draft`, {
    token: user.accessToken,
    method: "POST",
    json,
  });

describe("follow-up drafts quote only the seller's own numbers", () => {
  it("writes the draft with the mentioned product's facts and verifies a correct draft at once", async () => {
    const { user, panelId, customerId } = await seller();
    first.reply(() =>
      JSON.stringify({
        subject: "Your LED panel quote",
        body: "Dear Anna,\nthe LED panel LP-6060 is USD 12.50 per piece, MOQ 500 pcs, lead time 30 days.\nBest regards,\n[Your name]",
      }),
    );
    const { status, body } = await draft(user, customerId, { goal: "Send the quote" });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(first.requests).toHaveLength(1);
    const prompt = lastUser(first.requests[0]!.messages);
    expect(prompt).toContain("<facts>");
    expect(prompt).toContain(
      "- LED Panel Light 600x600 40W (SKU LP-6060): price: USD 12.50 per pcs; MOQ: 500 pcs; lead time: 30 days",
    );
    // The bolt is not mentioned: its facts stay out of the prompt.
    expect(prompt).not.toContain("Hex Bolt M8");
    expect(body.claims).toEqual([
      { text: "USD 12.50", kind: "price", verified: true, product_id: panelId },
      { text: "MOQ 500 pcs", kind: "moq", verified: true, product_id: panelId },
      { text: "lead time 30 days", kind: "lead_time", verified: true, product_id: panelId },
    ]);
    expect(body.flagged).toBe(false);
    expect(body).toMatchObject({ credits_charged: 1, balance: 29 });
  });

  it("regenerates a draft quoting a price not in the catalogue, naming it, and verifies the second", async () => {
    const { user, panelId, customerId } = await seller();
    first.reply((messages) =>
      JSON.stringify({
        subject: "LED panels",
        body: isCorrection(messages)
          ? "Hi Anna, our LED panel is USD 12.50 per piece. Shall I send a proforma?"
          : "Hi Anna, our LED panel is USD 9.90 per piece. Shall I send a proforma?",
      }),
    );
    const before = first.requests.length;
    const { status, body } = await draft(user, customerId, {});
    expect(status, JSON.stringify(body)).toBe(200);
    expect(first.requests.length - before).toBe(2);
    const retry = first.requests.at(-1)!.messages;
    expect(lastUser(retry)).toContain('"USD 9.90" (price)');
    // The first draft is shown to the model with the correction.
    expect(retry.some((m) => m.role === "assistant" && m.content.includes("USD 9.90"))).toBe(true);
    expect(body.body).toContain("USD 12.50");
    expect(body.claims).toEqual([
      { text: "USD 12.50", kind: "price", verified: true, product_id: panelId },
    ]);
    expect(body.flagged).toBe(false);
    // Charged once for the two model calls.
    expect(await balanceOf(user)).toBe(29);
    expect(await ledgerOf(user)).toEqual([{ kind: "consumption", delta: -1 }]);
  });

  it("flags a draft that stays wrong after the one regeneration, never hiding the claim", async () => {
    const { user, panelId, customerId } = await seller();
    first.reply(() =>
      JSON.stringify({
        subject: "LED panels",
        body: "Hi Anna, the Panelleuchte ships within 2 weeks, MOQ 100 pcs.",
      }),
    );
    const before = first.requests.length;
    const { status, body } = await draft(user, customerId, {});
    expect(status, JSON.stringify(body)).toBe(200);
    expect(first.requests.length - before).toBe(2);
    expect(body.flagged).toBe(true);
    expect(body.claims).toEqual([
      { text: "ships within 2 weeks", kind: "lead_time", verified: false, product_id: panelId },
      { text: "MOQ 100 pcs", kind: "moq", verified: false, product_id: panelId },
    ]);
    expect(body).toMatchObject({ credits_charged: 1, balance: 29 });
  });

  it("flags a price when the customer's record names no product of the catalogue", async () => {
    const { user } = await seller();
    const other = await call(app, "/api/v1/customers", {
      token: user.accessToken,
      json: { company: "Madrid Obras SL", status: "new", notes: "Met at the Canton Fair" },
    });
    expect(other.status).toBe(201);
    first.reply(() => JSON.stringify({ body: "Hola, nuestro precio es 15,00 USD por unidad." }));
    const before = first.requests.length;
    const { status, body } = await draft(user, other.body.id as string, { language: "es" });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(first.requests.length - before).toBe(2);
    const prompt = lastUser(first.requests[before]!.messages);
    expect(prompt).toMatch(/No product of the seller's catalogue matches/);
    expect(body.claims).toEqual([{ text: "15,00 USD", kind: "price", verified: false }]);
    expect(body.flagged).toBe(true);
  });

  it("carries the claims of a draft with no figure as an empty list", async () => {
    const { user, customerId } = await seller();
    first.reply(() => JSON.stringify({ body: "Hi Anna, did the samples arrive safely?" }));
    const { status, body } = await draft(user, customerId, { channel: "whatsapp" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ body: "Hi Anna, did the samples arrive safely?", claims: [] });
    expect(body.flagged).toBe(false);
  });
});

describe("a failed generation is never charged", () => {
  it('answers 503 to a placeholder draft `subject "..." / body "..."` and returns the credits', async () => {
    const { user, customerId } = await seller();
    first.reply(() => '{"subject": "...", "body": "..."}');
    const { status, body } = await draft(user, customerId, {});
    expect(status).toBe(503);
    expect(body.detail).toMatch(/credits were returned/);
    expect(await balanceOf(user)).toBe(30);
    const ledger = await ledgerOf(user);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(0);
    expect(ledger.map((row) => row.kind).sort()).toEqual(
      ledger.length === 0 ? [] : ["consumption", "refund"],
    );
  });

  it("answers 503 to a prompt echo and to a greeting-only draft", async () => {
    const { user, customerId } = await seller();
    first.reply((messages) => `echo: ${lastUser(messages)}`);
    expect((await draft(user, customerId, {})).status).toBe(503);
    first.reply(() => JSON.stringify({ subject: "Hello", body: "Dear Anna,\n...\n[Your name]" }));
    expect((await draft(user, customerId, {})).status).toBe(503);
    expect(await balanceOf(user)).toBe(30);
  });

  it("asks the next provider when the first answers a placeholder", async () => {
    const { user, customerId } = await seller();
    await setAiRouting(deps, "followup_draft", ["first", "second"]);
    first.reply(() => '{"subject": "...", "body": "..."}');
    second.reply(() =>
      JSON.stringify({ subject: "Samples", body: "Hi Anna, any news on the samples?" }),
    );
    const { status, body } = await draft(user, customerId, {});
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ provider: "second", body: "Hi Anna, any news on the samples?" });
    expect(await balanceOf(user)).toBe(29);
  });

  it("charges a quoted draft exactly its quote, once; a placeholder draft leaves it refunded", async () => {
    const { user, customerId } = await seller();
    const quote = async () => {
      const quoted = await call(app, "/api/v1/credits/quote", {
        token: user.accessToken,
        json: { operation: "followup_draft", input: {} },
      });
      expect(quoted.status, JSON.stringify(quoted.body)).toBe(201);
      return quoted.body as { quote_id: string; credits: number };
    };
    const good = await quote();
    first.reply(() => JSON.stringify({ body: "Hi Anna, did the samples arrive?" }));
    const done = await draft(user, customerId, { quote_id: good.quote_id });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.credits_charged).toBe(good.credits);
    const again = await draft(user, customerId, { quote_id: good.quote_id });
    expect(again.status).toBe(409);
    expect(await balanceOf(user)).toBe(30 - good.credits);

    const failed = await quote();
    first.reply(() => '{"subject": "...", "body": "..."}');
    expect((await draft(user, customerId, { quote_id: failed.quote_id })).status).toBe(503);
    expect(await balanceOf(user)).toBe(30 - good.credits);
  });

  it("rejects a quote_id that is not a uuid with 422 and charges nothing", async () => {
    const { user, customerId } = await seller();
    const { status } = await draft(user, customerId, { quote_id: "not-a-quote" });
    expect(status).toBe(422);
    expect(await balanceOf(user)).toBe(30);
  });
});

describe("productFactsFor", () => {
  it("finds the organisation's products a text names by SKU, name, alias or a close name", async () => {
    const { user, panelId, boltId } = await seller();
    const dimmerId = await createProduct(user, {
      name: "Smart Dimmer Switch",
      sku: "SD-1",
      price: 990,
      currency: "USD",
      aliases: ["调光开关"],
    });
    const names = async (texts: string[], limit?: number) =>
      (await productFactsFor(deps, user.userId, texts, limit)).map((f) => f.id);

    expect(await names(["Please quote LP-6060 again"])).toEqual([panelId]);
    // A SKU is a whole word: SD-10 and HB-M80 are not SD-1 and HB-M8.
    expect(await names(["Do you have SD-10 or HB-M80?"])).toEqual([]);
    expect(await names(["Was kostet die Panelleuchte?"])).toEqual([panelId]);
    expect(await names(["请报价调光开关500个"])).toEqual([dimmerId]);
    expect(await names(["We need hex bolt m8 in zinc"])).toEqual([boltId]);
    expect(await names(["", "smart dimmer switchs for hotels"])).toEqual([dimmerId]);
    // A misspelt name, close by pg_trgm word similarity.
    expect(await names(["do you sell smart dimer switches?"])).toEqual([dimmerId]);
    expect(await names(["Nothing of yours here: 2026-03-01, +49 30 1234567"])).toEqual([]);
    expect(await names([])).toEqual([]);
    // The SKU ranks first; the limit holds.
    expect(await names(["hex bolt m8 and LP-6060", "Smart Dimmer Switch"], 2)).toEqual([
      panelId,
      expect.any(String),
    ]);

    const [facts] = await productFactsFor(deps, user.userId, ["LP-6060"]);
    expect(facts).toEqual({
      id: panelId,
      name: "LED Panel Light 600x600 40W",
      sku: "LP-6060",
      unit: "pcs",
      price: 1250,
      currency: "USD",
      moq: 500,
      lead_time_days: 30,
      specs: { power: "40W", rating: "IP44" },
      aliases: ["Panelleuchte"],
    });
  });

  it("reads the caller's organisation only: a colleague sees it, another seller does not", async () => {
    const { user, panelId } = await seller();
    const colleague = await registerUser(app);
    await joinOrg(ctx.database, user, colleague, "member");
    const stranger = await registerUser(app);
    expect((await productFactsFor(deps, colleague.userId, ["LP-6060"])).map((f) => f.id)).toEqual([
      panelId,
    ]);
    expect(await productFactsFor(deps, stranger.userId, ["LP-6060"])).toEqual([]);
  });
});
