import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

// Issue #24 item 4, "Done when": an inquiry with an Incoterm, a port name in another language,
// a missing quantity and an unknown product; the unknown line is flagged, never priced 0
// silently, and the quotation cannot be sent until it is priced.

const ctx = await createTestContext();
const { app, deps } = ctx;
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi("sk-h4");
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  fake.fail(null);
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "h4",
    kind: "llm",
    baseUrl: fake.url,
    apiKey: fake.apiKey,
    models: ["h4-model"],
  });
  await setAiRouting(deps, "quotation_from_inquiry", ["h4"]);
});

const post = (user: Session, path: string, json: unknown) =>
  call(app, path, { token: user.accessToken, json });
const patch = (user: Session, id: string, json: unknown) =>
  call(app, `/api/v1/quotations/${id}`, { method: "PATCH", token: user.accessToken, json });
const balanceOf = async (user: Session) =>
  (await call(app, "/api/v1/credits/balance", { token: user.accessToken })).body.balance;

async function catalogue(user: Session) {
  const panel = await post(user, "/api/v1/products", {
    name: "LED Panel Light 600x600 40W",
    sku: "LP-6060",
    price: 2500,
    aliases: ["Panel LED 60x60", "LED面板灯"],
  });
  expect(panel.status).toBe(201);
  return panel.body.id as string;
}

const INQUIRY =
  "Hola, necesitamos 500 unidades de Panel LED 60x60 y también mangueras de jardín. " +
  "Condición CIF Hamburgo. ¿Nos puede enviar su mejor precio?";
/** What a model plausibly answers: the port and unit as written, no quantity for the hoses. */
const MODEL = {
  items: [
    { name: "Panel LED 60x60", quantity: 500, unit: "unidades" },
    { name: "mangueras de jardín", quantity: null, unit: null },
  ],
  currency: null,
  incoterm: "CIF",
  port_of_loading: null,
  port_of_destination: "Hamburgo",
  destination_country: null,
  certifications: [],
  deadline: null,
  payment_terms: null,
  language: "es",
  questions: null,
  notes: null,
};

describe("POST /api/v1/quotations/from-inquiry reads the inquiry for the seller", () => {
  it("normalises the Incoterm and a Spanish port name, flags the unknown product and asks for the missing quantity in Spanish", async () => {
    const user = await registerUser(app);
    const panel = await catalogue(user);
    fake.reply(() => JSON.stringify(MODEL));
    const res = await post(user, "/api/v1/quotations/from-inquiry", { inquiry_text: INQUIRY });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { extracted } = res.body;
    expect(extracted.items).toEqual([
      {
        name: "Panel LED 60x60",
        sku: null,
        quantity: 500,
        unit: "pcs",
        match: "alias",
        confidence: 0.95,
        product_id: panel,
        product_name: "LED Panel Light 600x600 40W",
        unpriced: false,
      },
      {
        name: "mangueras de jardín",
        sku: null,
        quantity: null,
        unit: null,
        match: "none",
        confidence: 0,
        product_id: null,
        product_name: null,
        unpriced: true,
      },
    ]);
    expect(extracted).toMatchObject({
      incoterm: "CIF",
      incoterm_raw: "CIF",
      port_of_loading: null,
      port_of_destination: { raw: "Hamburgo", locode: "DEHAM", name: "Hamburg", country: "DE" },
      destination_country: "DE",
      certifications: [],
      deadline: null,
      payment_terms: null,
      language: "es",
    });
    expect(res.body.missing_fields).toEqual(["items[1].quantity"]);
    expect(res.body.next_move).toBe("ask");
    expect(res.body.questions).toMatch(/^Gracias por su consulta\./);
    expect(res.body.questions).toContain("la cantidad que necesita de mangueras de jardín");
    expect(res.body.questions).not.toMatch(/Incoterm|destino/);

    // The draft: the seller's price on the matched line, the unknown line at 0 (quantity 1
    // until the buyer answers), the normalised Incoterm; 2 credits.
    expect(res.body).toMatchObject({ status: "draft", incoterm: "CIF", credits_charged: 2 });
    // CIF is named at the destination; no port of loading was given.
    expect(res.body).toMatchObject({ named_place: "Hamburg", port_of_loading: null });
    expect(
      res.body.items.map((i: Record<string, unknown>) => [i.name, i.quantity, i.unit_price]),
    ).toEqual([
      ["LED Panel Light 600x600 40W", 500, 2500],
      ["mangueras de jardín", 1, 0],
    ]);
    expect(res.body.extraction.items[1]).toEqual({
      name: "mangueras de jardín",
      quantity: 1,
      matched_product_id: null,
      similarity: null,
    });
    expect(await balanceOf(user)).toBe(28);
    expect(fake.requests.at(-1)!.messages.at(-1)!.content).toContain(INQUIRY);
    expect(fake.requests.at(-1)!.messages[0]!.content).toContain("port_of_destination");

    // It cannot be marked sent, by either way of sending, until the line is priced.
    const id = res.body.id as string;
    const customer = await post(user, "/api/v1/customers", { company: "Jardines SA" });
    expect((await patch(user, id, { customer_id: customer.body.id })).status).toBe(200);
    const bySend = await call(app, `/api/v1/quotations/${id}/send`, {
      token: user.accessToken,
      csrf: user.csrfToken,
      json: { to: "compras@jardines.example" },
    });
    expect(bySend.status, JSON.stringify(bySend.body)).toBe(409);
    expect(bySend.body).toMatchObject({ code: "quotation_unpriced", lines: [2] });
    const byStatus = await patch(user, id, { status: "sent" });
    expect(byStatus.status).toBe(409);
    expect(byStatus.body).toMatchObject({ code: "quotation_unpriced", lines: [2] });
    const [row] = await queryRows<{ status: string }>(
      deps.db,
      sql`select status from quotations where id = ${id}::uuid`,
    );
    expect(row!.status).toBe("draft");

    const priced = await patch(user, id, {
      items: [
        { product_id: panel, quantity: 500 },
        { name: "mangueras de jardín", quantity: 200, unit_price: 350 },
      ],
    });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    const sent = await patch(user, id, { status: "sent" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.status).toBe("sent");
  }, 120_000);

  it("reads raw forms: 'free on board', a Chinese port, Stück, DDU as DAP with a note, an unknown port kept as written", async () => {
    const user = await registerUser(app);
    const panel = await catalogue(user);
    fake.reply(() =>
      JSON.stringify({
        items: [{ name: "LED面板灯", quantity: 40, unit: "Stück" }],
        incoterm: "free on board",
        port_of_loading: "宁波",
        language: "de",
      }),
    );
    const fob = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: "Wir benötigen 40 Stück LED面板灯, FOB Ningbo.",
    });
    expect(fob.status).toBe(201);
    expect(fob.body.extracted.items[0]).toMatchObject({
      match: "alias",
      product_id: panel,
      unit: "pcs",
      quantity: 40,
    });
    expect(fob.body.extracted).toMatchObject({
      incoterm: "FOB",
      port_of_loading: { locode: "CNNGB", country: "CN" },
      port_of_destination: null,
      language: "de",
    });
    // FOB is named at the port of loading, which the quotation prints.
    expect(fob.body).toMatchObject({ named_place: "Ningbo", port_of_loading: "Ningbo" });
    // FOB: the seller's price does not depend on the destination; nothing is missing.
    expect(fob.body.missing_fields).toEqual([]);
    expect(fob.body.next_move).toBe("draft");
    expect(fob.body.questions).toBeNull();

    fake.reply(() =>
      JSON.stringify({
        items: [{ name: "LP-6060", sku: "LP-6060", quantity: 10, unit: "pcs" }],
        incoterm: "DDU",
        port_of_destination: "Puerto Quetzal Norte",
        destination_country: "Guatemala",
      }),
    );
    const ddu = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: "10 pcs LP-6060 DDU Puerto Quetzal Norte, Guatemala",
    });
    expect(ddu.status).toBe(201);
    expect(ddu.body.incoterm).toBe("DAP");
    expect(ddu.body.extracted).toMatchObject({
      incoterm: "DAP",
      incoterm_raw: "DDU",
      port_of_destination: {
        raw: "Puerto Quetzal Norte",
        locode: null,
        name: "Puerto Quetzal Norte",
        country: null,
      },
      destination_country: "GT",
      language: "en",
    });
    expect(ddu.body.extracted.notes).toEqual([
      "DDU is not an Incoterms 2020 rule; read as DAP, its successor",
    ]);
    expect(ddu.body.extracted.items[0]).toMatchObject({ match: "exact", confidence: 1 });
    expect(ddu.body.next_move).toBe("draft");
  });

  it("says out_of_scope when nothing matches the catalogue, and asks in English for a language without a template unless the model wrote the message", async () => {
    const user = await registerUser(app);
    await catalogue(user);
    fake.reply(() =>
      JSON.stringify({
        items: [{ name: "garden hose", quantity: 100, unit: "pcs" }],
        incoterm: "EXW",
      }),
    );
    const none = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: "100 garden hoses EXW please",
    });
    expect(none.status).toBe(201);
    expect(none.body.next_move).toBe("out_of_scope");
    expect(none.body.extracted.items[0]).toMatchObject({ match: "none", unpriced: true });
    expect(none.body.questions).toBeNull();

    const french = {
      items: [{ name: "Panel LED 60x60", quantity: null }],
      incoterm: "CIF",
      port_of_destination: "Marseille",
      language: "fr",
    };
    fake.reply(() => JSON.stringify(french));
    const fallback = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: "Bonjour, votre prix pour le Panel LED 60x60 CIF Marseille ?",
    });
    expect(fallback.body.extracted.language).toBe("fr");
    expect(fallback.body.extracted.port_of_destination.locode).toBe("FRMRS");
    expect(fallback.body.next_move).toBe("ask");
    expect(fallback.body.questions).toMatch(/^Thank you for your inquiry\./);

    fake.reply(() =>
      JSON.stringify({ ...french, questions: "Merci ! Quelle quantité souhaitez-vous ?" }),
    );
    const byModel = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: "Bonjour, votre prix pour le Panel LED 60x60 CIF Marseille ?",
    });
    expect(byModel.body.questions).toBe("Merci ! Quelle quantité souhaitez-vous ?");
  });

  it("finds an ASCII alias inside a line only as whole words, one in other letters anywhere", async () => {
    const user = await registerUser(app);
    const pan = await post(user, "/api/v1/products", {
      name: "Saucepan 24cm",
      sku: "SP-24",
      price: 800,
      aliases: ["pan", "Topf"],
    });
    const panel = await catalogue(user);
    fake.reply(() =>
      JSON.stringify({
        items: [
          { name: "solar panel 400W", quantity: 10 },
          { name: "pan 24 cm, stainless", quantity: 10 },
          { name: "LED面板灯600x600", quantity: 10 },
        ],
        incoterm: "EXW",
      }),
    );
    const res = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: "10 solar panels 400W, 10 pans 24 cm, 10 LED面板灯600x600, EXW",
    });
    expect(res.status).toBe(201);
    expect(
      res.body.extracted.items.map((i: Record<string, unknown>) => [i.match, i.product_id]),
    ).toEqual([
      ["none", null],
      ["alias", pan.body.id],
      ["alias", panel],
    ]);
  });

  it("charges exactly a quote of the operation when called with its quote_id", async () => {
    const user = await registerUser(app);
    await catalogue(user);
    const quoted = await post(user, "/api/v1/credits/quote", {
      operation: "quotation_from_inquiry",
      input: { inquiry_text: INQUIRY },
    });
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(201);
    expect(quoted.body).toMatchObject({ operation: "quotation_from_inquiry", credits: 2 });
    fake.reply(() => JSON.stringify(MODEL));
    const res = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: INQUIRY,
      quote_id: quoted.body.quote_id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.credits_charged).toBe(quoted.body.credits);
    expect(await balanceOf(user)).toBe(30 - quoted.body.credits);
  });

  it("takes quote_id in the body (a malformed one is refused before anything is charged)", async () => {
    const user = await registerUser(app);
    const before = fake.requests.length;
    const bad = await post(user, "/api/v1/quotations/from-inquiry", {
      inquiry_text: "5 widgets",
      quote_id: "not-a-quote",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(["body", "quote_id"]);
    expect(fake.requests.length).toBe(before);
    expect(await balanceOf(user)).toBe(30);
  });
});
