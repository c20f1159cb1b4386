import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { extractJsonText, parseJsonOutput } from "../../src/modules/ai/json-output";
import { FollowupAnswer } from "../../src/modules/ai-drafts/schemas";
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
let first: FakeOpenAi;
let second: FakeOpenAi;
let third: FakeOpenAi;

beforeAll(async () => {
  [first, second, third] = await Promise.all([
    startFakeOpenAi("sk-first"),
    startFakeOpenAi("sk-second"),
    startFakeOpenAi("sk-third"),
  ]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close(), third.close()]);
});
beforeEach(async () => {
  for (const fake of [first, second, third]) {
    fake.fail(null);
    fake.reply(() => "not configured");
  }
  await clearAiProviders(deps);
  for (const [name, fake] of [
    ["first", first],
    ["second", second],
    ["third", third],
  ] as const) {
    await addAiProvider(deps, {
      name,
      kind: "llm",
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      models: [`${name}-model`],
    });
  }
  // Only `first` unless a test routes more.
  await setAiRouting(deps, "followup_draft", ["first"]);
  await setAiRouting(deps, "quotation_from_inquiry", ["first"]);
});

const balanceOf = async (user: Session) => {
  const answer = await typed(app).get("/api/v1/credits/balance", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer.body.balance;
};
const userPrompt = (fake: FakeOpenAi) =>
  fake.requests.at(-1)!.messages.find((m) => m.role === "user")!.content;
const requestCount = () => first.requests.length + second.requests.length + third.requests.length;

async function createCustomer(user: Session, overrides: Record<string, unknown> = {}) {
  const { status, body } = await call(app, "/api/v1/customers", {
    token: user.accessToken,
    json: {
      company: "Hamburg Lighting GmbH",
      contact_name: "Anna Weber",
      country: "Germany",
      status: "negotiating",
      notes: "Wants CE certificates before ordering",
      ...overrides,
    },
  });
  expect(status).toBe(201);
  return body.id as string;
}

async function logContact(user: Session, customerId: string, contactedAt: string, note: string) {
  const logged = await typed(app).post("/api/v1/customers/{id}/followups", {
    token: user.accessToken,
    params: { id: customerId },
    json: { channel: "email", note, contacted_at: contactedAt },
  });
  expectStatus(logged, 201);
}

async function followupCount(customerId: string) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from followup_logs where customer_id = ${customerId}`,
  );
  return row!.n;
}

describe("extractJsonText", () => {
  it("reads a fenced block, an object inside prose, and finds none in plain text", () => {
    expect(extractJsonText('```json\n{"a": 1}\n```')).toBe('{"a": 1}');
    expect(extractJsonText('Here you go: {"a": {"b": 2}} done')).toBe('{"a": {"b": 2}}');
    expect(extractJsonText("Hello Anna, just checking in.")).toBeUndefined();
  });

  it("tells broken JSON from prose, and checks the schema", () => {
    expect(parseJsonOutput('{"body": "Hi"}', FollowupAnswer)).toEqual({
      ok: true,
      value: { body: "Hi" },
    });
    expect(parseJsonOutput('{"subject": "x", "body": ', FollowupAnswer)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(parseJsonOutput("```json\n{oops}\n```", FollowupAnswer).ok).toBe(false);
    expect(parseJsonOutput('{"body": 42}', FollowupAnswer)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(parseJsonOutput("Dear {name}, any news?", FollowupAnswer)).toEqual({
      ok: false,
      reason: "no_json",
    });
  });
});

describe("POST /api/v1/customers/:id/followups/draft", () => {
  const draft = (
    user: Session,
    customerId: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ) =>
    call(app, `/api/v1/customers/${customerId}/followups/draft`, {
      token: user.accessToken,
      method: "POST",
      ...(json === undefined ? {} : { json }),
      headers,
    });
  type DraftBody = NonNullable<
    ApiOptions<Operation<"/api/v1/customers/{id}/followups/draft", "post">>["json"]
  >;
  /** A draft that must succeed, typed by the OpenAPI document (ADR 0095); asserts 200. */
  const drafted = async (
    user: Session,
    customerId: string,
    json?: DraftBody,
    headers: Record<string, string> = {},
  ) => {
    const answer = await typed(app).post("/api/v1/customers/{id}/followups/draft", {
      token: user.accessToken,
      params: { id: customerId },
      json,
      headers,
    });
    expectStatus(answer, 200);
    return answer;
  };

  it("drafts an e-mail from the customer's facts and last 5 contacts, charging 1 credit", async () => {
    const user = await registerUser(app);
    const customerId = await createCustomer(user);
    const day = (n: number) => new Date(Date.now() - (10 - n) * 86_400_000).toISOString();
    for (let n = 1; n <= 6; n++) await logContact(user, customerId, day(n), `contact number ${n}`);
    const logsBefore = await followupCount(customerId);
    first.reply(
      () =>
        '```json\n{"subject": "CE certificates for your order", "body": "Dear Anna, the certificates are attached."}\n```',
    );

    const { status, body } = await drafted(user, customerId, {
      language: "de",
      channel: "email",
      goal: "Send the CE certificates and ask for the order",
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      customer_id: customerId,
      channel: "email",
      language: "de",
      subject: "CE certificates for your order",
      body: "Dear Anna, the certificates are attached.",
      claims: [],
      flagged: false,
      provider: "first",
      credits_charged: 1,
      balance: 29,
    });
    expect(await balanceOf(user)).toBe(29);
    const prompt = userPrompt(first);
    expect(prompt).toContain("Company: Hamburg Lighting GmbH");
    expect(prompt).toContain("Contact: Anna Weber");
    expect(prompt).toContain("Pipeline status: negotiating");
    expect(prompt).toContain("Seller's notes: Wants CE certificates before ordering");
    expect(prompt).toContain(`Last contact: ${day(6).slice(0, 10)}`);
    expect(prompt).toContain("Goal: Send the CE certificates and ask for the order");
    expect(prompt).toContain("Language: de");
    for (let n = 2; n <= 6; n++) expect(prompt).toContain(`contact number ${n}`);
    expect(prompt).not.toContain("contact number 1");
    expect(prompt.indexOf("contact number 6")).toBeLessThan(prompt.indexOf("contact number 2"));
    // Nothing is logged: the seller sends the message and then logs the contact.
    expect(await followupCount(customerId)).toBe(logsBefore);
  });

  it("defaults to an e-mail in English without a body, and takes a plain-text answer as the body", async () => {
    const user = await registerUser(app);
    const customerId = await createCustomer(user, { status: "new", notes: null });
    first.reply(() => "Hello Anna, just checking in on the samples.");
    const { status, body } = await drafted(user, customerId);
    expect(status).toBe(200);
    expect(body).toEqual({
      customer_id: customerId,
      channel: "email",
      language: "en",
      body: "Hello Anna, just checking in on the samples.",
      claims: [],
      flagged: false,
      provider: "first",
      credits_charged: 1,
      balance: 29,
    });
    expect(userPrompt(first)).toContain("Last contact: never");
  });

  it("drops the subject for a WhatsApp draft", async () => {
    const user = await registerUser(app);
    const customerId = await createCustomer(user);
    first.reply(() => '{"subject": "ignored", "body": "Hi Anna! Any news?"}');
    const { body } = await drafted(user, customerId, { channel: "whatsapp" });
    expect(body).toMatchObject({ channel: "whatsapp", body: "Hi Anna! Any news?" });
    expect(body).not.toHaveProperty("subject");
    expect(userPrompt(first)).toMatch(/WhatsApp/);
  });

  it("answers 404 for another seller's customer before charging", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const customerId = await createCustomer(owner);
    const before = requestCount();
    const { status, body } = await draft(other, customerId, {});
    expect(status).toBe(404);
    expect(body.detail).toBe("Customer not found");
    expect(requestCount()).toBe(before);
    expect(await balanceOf(other)).toBe(30);
  });

  it("rejects bad input with 422 and charges nothing", async () => {
    const user = await registerUser(app);
    const customerId = await createCustomer(user);
    for (const json of [
      { channel: "fax" },
      { language: "??" },
      { goal: "x".repeat(501) },
      { goal: "" },
      { tone: "friendly" },
    ]) {
      expect((await draft(user, customerId, json)).status, JSON.stringify(json)).toBe(422);
    }
    expect((await draft(user, "not-a-uuid", {})).status).toBe(422);
    expect(await balanceOf(user)).toBe(30);
  });

  it("refunds when the provider fails, and when two providers answer broken JSON", async () => {
    const user = await registerUser(app);
    const customerId = await createCustomer(user);
    first.fail("http-500");
    const failed = await draft(user, customerId, {});
    expect(failed.status).toBe(503);
    expect(await balanceOf(user)).toBe(30);

    first.fail(null);
    await setAiRouting(deps, "followup_draft", ["first", "second"]);
    first.reply(() => '{"subject": "x", "body": ');
    second.reply(() => '{"body": 42}');
    const broken = await draft(user, customerId, {});
    expect(broken.status).toBe(503);
    expect(broken.body.detail).toMatch(/credits were returned/);
    expect(await balanceOf(user)).toBe(30);
    expect(await followupCount(customerId)).toBe(0);
  });

  it("answers 402 when the balance is short, and charges an idempotent retry once", async () => {
    const user = await registerUser(app);
    const customerId = await createCustomer(user);
    first.reply(() => '{"subject": "Hello", "body": "Hi Anna, any news?"}');
    const headers = { "Idempotency-Key": `fd-${user.userId}` };
    const one = await drafted(user, customerId, { goal: "check in" }, headers);
    const two = await drafted(user, customerId, { goal: "check in" }, headers);
    expect(one.status).toBe(200);
    expect(two.body).toEqual(one.body);
    expect(two.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(user)).toBe(29);

    await adjustCredits(deps, {
      userId: user.userId,
      delta: -29,
      actorId: user.userId,
      reason: "test",
    });
    const before = requestCount();
    const short = await draft(user, customerId, {});
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({ required: 1, balance: 0 });
    expect(requestCount()).toBe(before);
  });
});

describe("POST /api/v1/quotations/from-inquiry", () => {
  const fromInquiry = (user: Session, json: unknown, headers: Record<string, string> = {}) =>
    call(app, "/api/v1/quotations/from-inquiry", { token: user.accessToken, json, headers });
  type InquiryBody = NonNullable<
    ApiOptions<Operation<"/api/v1/quotations/from-inquiry", "post">>["json"]
  >;
  /** A draft quotation that must be made, typed by the OpenAPI document (ADR 0095); asserts 201. */
  const inquired = async (
    user: Session,
    json: InquiryBody,
    headers: Record<string, string> = {},
  ) => {
    const answer = await typed(app).post("/api/v1/quotations/from-inquiry", {
      token: user.accessToken,
      json,
      headers,
    });
    expectStatus(answer, 201);
    return answer;
  };

  async function createProduct(user: Session, json: Record<string, unknown>) {
    const { status, body } = await call(app, "/api/v1/products", { token: user.accessToken, json });
    expect(status).toBe(201);
    return body.id as string;
  }

  async function quotationCount(userId: string) {
    const [row] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from quotations where user_id = ${userId}`,
    );
    return row!.n;
  }

  const INQUIRY =
    "Hi, please quote 500 pcs LED panel lights 600x600 40W (target 8 USD), 200 pcs DL-12 and " +
    "50 sets solar street lamp at 45.50. CIF Hamburg, delivery within 30 days.";
  const EXTRACTED = {
    items: [
      { name: "LED panel lights 600x600 40W", quantity: 500, unit: "pcs", target_unit_price: 8 },
      { name: "Downlight", sku: "dl-12", quantity: 200, unit: "pcs" },
      { name: "Solar street lamp", quantity: "50", unit: "sets", target_unit_price: 45.5 },
    ],
    currency: "USD",
    incoterm: "cif",
    notes: "CIF Hamburg, delivery within 30 days",
  };

  it("numbers a draft beside racing creates of the same seller (its quotation is made in the settling transaction)", async () => {
    // On PostgreSQL a create that lost the race for a number used to raise a unique violation,
    // which aborts the transaction the draft's quotation is made in, and every retry in it.
    const user = await registerUser(app);
    first.reply(() => JSON.stringify(EXTRACTED));
    const plain = (i: number) =>
      call(app, "/api/v1/quotations", {
        token: user.accessToken,
        json: { currency: "USD", items: [{ name: `Lamp ${i}`, quantity: 1, unit_price: 100 }] },
      });
    for (let round = 0; round < 5; round++) {
      const [draft, ...others] = await Promise.all([
        fromInquiry(user, { inquiry_text: INQUIRY }),
        ...Array.from({ length: 8 }, (_, i) => plain(i)),
      ]);
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      expect(others.map((r) => r.status)).toEqual(Array(8).fill(201));
    }
    const numbers = await queryRows<{ quote_no: string }>(
      deps.db,
      sql`select quote_no from quotations where user_id = ${user.userId}`,
    );
    expect(numbers).toHaveLength(45);
    expect(new Set(numbers.map((n) => n.quote_no)).size).toBe(45);
    expect(await balanceOf(user)).toBe(30 - 5 * 2);
  });

  it("extracts the items, matches products by SKU and by similar name, and creates a draft", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    // Another seller's identical product must never be matched.
    await createProduct(other, { name: "LED Panel Light 600x600 40W", sku: "LP-6060", price: 1 });
    const panel = await createProduct(user, {
      name: "LED Panel Light 600x600 40W",
      sku: "LP-6060",
      price: 2500,
      currency: "USD",
    });
    const downlight = await createProduct(user, {
      name: "Recessed Downlight 12W",
      sku: "DL-12",
      price: 300,
      currency: "USD",
    });
    await createProduct(user, { name: "Garden hose reel", sku: "GH-1", price: 999 });
    const customerId = await createCustomer(user);
    first.reply(() => `\`\`\`json\n${JSON.stringify(EXTRACTED)}\n\`\`\``);

    const { status, body } = await inquired(user, {
      inquiry_text: INQUIRY,
      customer_id: customerId,
    });
    expect(status).toBe(201);
    expect(userPrompt(first)).toContain(INQUIRY);
    expect(body).toMatchObject({
      quote_no: expect.stringMatching(/^Q-\d{8}-\d{3}$/),
      status: "draft",
      customer_id: customerId,
      currency: "USD",
      incoterm: "CIF",
      notes: "CIF Hamburg, delivery within 30 days",
      subtotal: 500 * 2500 + 200 * 300 + 50 * 4550,
      total: 500 * 2500 + 200 * 300 + 50 * 4550,
      credits_charged: 2,
      balance: 28,
    });
    expect(
      body.items.map((i: Record<string, unknown>) => [
        i.product_id,
        i.name,
        i.unit,
        i.quantity,
        i.unit_price,
      ]),
    ).toEqual([
      [panel, "LED Panel Light 600x600 40W", "pcs", 500, 2500],
      [downlight, "Recessed Downlight 12W", "pcs", 200, 300],
      [null, "Solar street lamp", "sets", 50, 4550],
    ]);
    expect(body.extraction.notes).toBe("CIF Hamburg, delivery within 30 days");
    const [fuzzy, exact, none] = body.extraction.items;
    expect(fuzzy).toMatchObject({ name: "LED panel lights 600x600 40W", quantity: 500 });
    expect(fuzzy?.matched_product_id).toBe(panel);
    expect(fuzzy?.similarity).toBeGreaterThanOrEqual(0.3);
    expect(fuzzy?.similarity).toBeLessThan(1);
    expect(exact).toEqual({
      name: "Downlight",
      quantity: 200,
      matched_product_id: downlight,
      similarity: 1,
    });
    expect(none).toEqual({
      name: "Solar street lamp",
      quantity: 50,
      matched_product_id: null,
      similarity: null,
    });
    expect(await balanceOf(user)).toBe(28);

    // The same quotation the quotation API serves.
    const stored = await typed(app).get("/api/v1/quotations/{id}", {
      token: user.accessToken,
      params: { id: body.id },
    });
    expectStatus(stored, 200);
    const {
      extraction: _e,
      extracted: _x,
      missing_fields: _m,
      questions: _q,
      next_move: _n,
      credits_charged: _c,
      balance: _b,
      ...quotation
    } = body as typeof body &
      Record<"extracted" | "missing_fields" | "questions" | "next_move", unknown>;
    expect(stored.body).toEqual(quotation);
  });

  it("takes the body's currency, and the buyer's target where a product has no price or no rate", async () => {
    const user = await registerUser(app);
    const panel = await createProduct(user, {
      name: "LED Panel Light 600x600 40W",
      sku: "LP-6060",
      price: 2500,
      currency: "USD",
    });
    const unpriced = await createProduct(user, { name: "Cable gland M20", sku: "CG-20" });
    first.reply(() =>
      JSON.stringify({
        items: [
          { name: "LP-6060", quantity: 10, target_unit_price: 7.25 },
          { name: "cable gland m20", quantity: 3, target_unit_price: 0.5 },
          { name: "LED panel light 600x600 40 W", quantity: 1 },
        ],
      }),
    );
    // No AED rate in the exchange module: the USD-priced lines take the buyer's target or 0.
    const { status, body } = await inquired(user, {
      inquiry_text: "10 LP-6060 at 7.25 AED and 3 cable glands",
      currency: "AED",
    });
    expect(status).toBe(201);
    expect(body.currency).toBe("AED");
    expect(body.customer_id).toBeNull();
    expect(body.items.map((i) => [i.product_id, i.quantity, i.unit_price])).toEqual([
      [panel, 10, 725],
      [unpriced, 3, 50],
      [panel, 1, 0],
    ]);
    // With a rate (EUR, from the ECB snapshot) the seller's price is converted instead.
    const eur = await inquired(user, { inquiry_text: "the same in EUR", currency: "EUR" });
    expect(eur.body.items.map((i) => [i.product_id, i.unit_price])).toEqual([
      [panel, 2282],
      [unpriced, 50],
      [panel, 2282],
    ]);
    expect(body.extraction.items[0]?.similarity).toBe(1);
  });

  it("tries the next provider once when an answer is unparseable", async () => {
    const user = await registerUser(app);
    await setAiRouting(deps, "quotation_from_inquiry", ["first", "second", "third"]);
    first.reply(() => "Sorry, I cannot help with that.");
    second.reply(() => JSON.stringify({ items: [{ name: "Widget", quantity: 5 }] }));
    const ok = await inquired(user, { inquiry_text: "5 widgets please" });
    expect(ok.status).toBe(201);
    expect(ok.body.items[0]).toMatchObject({ name: "Widget", quantity: 5, unit_price: 0 });
    expect(ok.body.balance).toBe(28);

    // Two unusable answers: 503, refunded, nothing created, and the third is not asked.
    second.reply(() => '{"items": [{"name": "Widget", "quantity": "many"}]}');
    const thirdBefore = third.requests.length;
    const count = await quotationCount(user.userId);
    const failed = await fromInquiry(user, { inquiry_text: "5 widgets please" });
    expect(failed.status).toBe(503);
    expect(failed.body.detail).toMatch(/credits were returned/);
    expect(JSON.stringify(failed.body)).not.toContain("Sorry");
    expect(third.requests.length).toBe(thirdBefore);
    expect(await balanceOf(user)).toBe(28);
    expect(await quotationCount(user.userId)).toBe(count);
  });

  it("answers 503 with a refund when the only provider answers unparseable text or fails", async () => {
    const user = await registerUser(app);
    first.reply(() => "{ not json");
    expect((await fromInquiry(user, { inquiry_text: "5 widgets" })).status).toBe(503);
    first.fail("http-500");
    expect((await fromInquiry(user, { inquiry_text: "5 widgets" })).status).toBe(503);
    expect(await balanceOf(user)).toBe(30);
    expect(await quotationCount(user.userId)).toBe(0);
  });

  it("refunds a 422 when the inquiry names no products", async () => {
    const user = await registerUser(app);
    first.reply(() => '{"items": [], "notes": "Just asking for a catalogue"}');
    const { status, body } = await fromInquiry(user, { inquiry_text: "Send me your catalogue" });
    expect(status).toBe(422);
    expect(body.detail).toMatch(/No products/);
    expect(await balanceOf(user)).toBe(30);
    expect(await quotationCount(user.userId)).toBe(0);
  });

  it("answers 404 for another seller's customer before charging", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const customerId = await createCustomer(owner);
    const before = requestCount();
    const { status } = await fromInquiry(other, {
      inquiry_text: "5 widgets",
      customer_id: customerId,
    });
    expect(status).toBe(404);
    expect(requestCount()).toBe(before);
    expect(await balanceOf(other)).toBe(30);
    expect(await quotationCount(other.userId)).toBe(0);
  });

  it("rejects bad input with 422 and charges nothing", async () => {
    const user = await registerUser(app);
    for (const json of [
      {},
      { inquiry_text: "" },
      { inquiry_text: "   " },
      { inquiry_text: "x".repeat(10_001) },
      { inquiry_text: "5 widgets", currency: "usd" },
      { inquiry_text: "5 widgets", customer_id: "nope" },
      { inquiry_text: "5 widgets", items: [] },
    ]) {
      expect((await fromInquiry(user, json)).status, JSON.stringify(json).slice(0, 80)).toBe(422);
    }
    expect(await balanceOf(user)).toBe(30);
  });

  it("answers 402 with nothing created, and charges an idempotent retry once", async () => {
    const user = await registerUser(app);
    first.reply(() =>
      JSON.stringify({ items: [{ name: "Widget", quantity: 5, target_unit_price: 2 }] }),
    );
    const headers = { "Idempotency-Key": `qi-${user.userId}` };
    const json = { inquiry_text: "5 widgets at 2 USD" };
    const one = await inquired(user, json, headers);
    const two = await inquired(user, json, headers);
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(two.body).toEqual(one.body);
    expect(await quotationCount(user.userId)).toBe(1);
    expect(await balanceOf(user)).toBe(28);

    await adjustCredits(deps, {
      userId: user.userId,
      delta: -27,
      actorId: user.userId,
      reason: "test",
    });
    const before = requestCount();
    const short = await fromInquiry(user, { inquiry_text: "6 widgets" });
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({ required: 2, balance: 1 });
    expect(requestCount()).toBe(before);
    expect(await quotationCount(user.userId)).toBe(1);
  });

  it("does not collide with the quotation id routes", async () => {
    const user = await registerUser(app);
    // GET/PATCH/DELETE /quotations/{id} take a UUID: the literal path is not an id.
    const get = await call(app, "/api/v1/quotations/from-inquiry", { token: user.accessToken });
    expect(get.status).toBe(422);
    expect(get.body.errors[0].loc).toEqual(["path", "id"]);
    const post = await fromInquiry(user, { inquiry_text: "" });
    expect(post.body.errors[0].loc).toEqual(["body", "inquiry_text"]);
    expect(
      (await call(app, "/api/v1/quotations/from-inquiry", { method: "POST", json: {} })).status,
    ).toBe(401);
  });
});
