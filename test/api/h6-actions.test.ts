import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, setAiRouting } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany } from "../support/orgs";

// Issue #24 item 6: POST /api/v1/ai/actions/{id}/confirm performs an assistant proposal once,
// through the owning service, with edits checked by the owning route's schema (ADR 0113).

const ctx = await createTestContext();
const { app, deps } = ctx;
let llm: FakeOpenAi;

/** What the fake model proposes for the next turn (an action block), by the user's message. */
const proposals: Record<string, unknown> = {};

beforeAll(async () => {
  llm = await startFakeOpenAi("sk-h6-actions");
  await addAiProvider(deps, {
    name: "h6-actions-llm",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["chat-model"],
  });
  await setAiRouting(deps, "chat", ["h6-actions-llm"]);
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  llm.reply((messages) => {
    const asked = messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    const action = proposals[asked];
    if (!action) return `echo: ${asked}`;
    return `I prepared it; please confirm.\n\`\`\`action\n${JSON.stringify(action)}\n\`\`\``;
  });
});

let turn = 0;
/** One chat turn whose answer proposes `action`; the action as the chat answered it. */
async function propose(user: Session, action: unknown) {
  const message = `please do this ${++turn}`;
  proposals[message] = action;
  const { status, body } = await call(app, "/api/v1/ai/chat", {
    token: user.accessToken,
    json: { message },
  });
  expect(status).toBe(200);
  expect(body.action).not.toBeNull();
  expect(body.action.id).toEqual(expect.any(String));
  expect(body.message.action.id).toBe(body.action.id);
  return body.action as { id: string; type: string; data: Record<string, unknown> };
}

const confirm = (user: Session, id: string, json: unknown = {}) =>
  call(app, `/api/v1/ai/actions/${id}/confirm`, { token: user.accessToken, json });

async function count(table: string, where: ReturnType<typeof sql>) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`,
  );
  return row!.n;
}

async function actionRow(id: string) {
  const [row] = await queryRows<{ performed_at: Date | null; result_id: string | null }>(
    deps.db,
    sql`select performed_at, result_id from ai_actions where id = ${id}::uuid`,
  );
  return row!;
}

describe("POST /api/v1/ai/actions/{id}/confirm", () => {
  it("performs add_customer once: a second confirm replays the first outcome", async () => {
    const user = await registerUser(app);
    const company = `Acme ${crypto.randomUUID()}`;
    const action = await propose(user, {
      type: "add_customer",
      data: { company, email: "anna@acme.de" },
    });
    expect(action.type).toBe("add_customer");
    // Proposed only: nothing written yet.
    expect(await count("customers", sql`company = ${company}`)).toBe(0);

    const first = await confirm(user, action.id);
    expect(first.status).toBe(200);
    expect(first.body.replayed).toBe(false);
    expect(first.body.type).toBe("add_customer");
    expect(first.body.result.company).toBe(company);
    expect(first.body.result_id).toBe(first.body.result.id);

    const second = await confirm(user, action.id, { edits: { country: "France" } });
    expect(second.status).toBe(200);
    expect(second.body.replayed).toBe(true);
    expect(second.body.result_id).toBe(first.body.result_id);
    expect(second.body.result.country).toBeNull();
    expect(await count("customers", sql`company = ${company}`)).toBe(1);

    const row = await actionRow(action.id);
    expect(row.performed_at).not.toBeNull();
    expect(row.result_id).toBe(first.body.result_id);

    // The conversation read shows the action with its id.
    const conversations = await call(app, "/api/v1/ai/conversations", { token: user.accessToken });
    const detail = await call(app, `/api/v1/ai/conversations/${conversations.body.items[0].id}`, {
      token: user.accessToken,
    });
    const proposed = detail.body.messages.find((m: any) => m.action);
    expect(proposed.action.id).toBe(action.id);
  });

  it("performs it once when confirmed concurrently", async () => {
    const user = await registerUser(app);
    const company = `Race ${crypto.randomUUID()}`;
    const action = await propose(user, { type: "add_customer", data: { company } });
    const answers = await Promise.all([1, 2, 3].map(() => confirm(user, action.id)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.result_id)).size).toBe(1);
    expect(await count("customers", sql`company = ${company}`)).toBe(1);
  });

  it("applies edits, checked by the owning route's schema: a bad edit is 422 and creates nothing", async () => {
    const user = await registerUser(app);
    const company = `Edits ${crypto.randomUUID()}`;
    const action = await propose(user, { type: "add_customer", data: { company } });

    const bad = await confirm(user, action.id, { edits: { email: "not an email" } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("validation_failed");
    expect(bad.body.errors[0].loc).toEqual(["body", "edits", "email"]);
    const unknown = await confirm(user, action.id, { edits: { shoe_size: 44 } });
    expect(unknown.status).toBe(422);
    expect(await count("customers", sql`company = ${company}`)).toBe(0);
    expect((await actionRow(action.id)).performed_at).toBeNull();

    const good = await confirm(user, action.id, {
      edits: { country: "Germany", email: "Buyer@Example.com" },
    });
    expect(good.status).toBe(200);
    expect(good.body.replayed).toBe(false);
    expect(good.body.result.country).toBe("Germany");
    expect(good.body.result.email).toBe("buyer@example.com");
    expect(await count("customers", sql`company = ${company} and country = 'Germany'`)).toBe(1);
  });

  it("is 404 for another user's action, a colleague in the same organisation included", async () => {
    const company = await createCompany(ctx);
    const name = `Mine ${crypto.randomUUID()}`;
    const action = await propose(company.member, { type: "add_customer", data: { company: name } });
    for (const other of [company.colleague, company.owner, company.admin, company.outsider]) {
      const answer = await confirm(other, action.id);
      expect(answer.status).toBe(404);
    }
    const missing = await confirm(company.member, crypto.randomUUID());
    expect(missing.status).toBe(404);
    expect(await count("customers", sql`company = ${name}`)).toBe(0);
    expect((await confirm(company.member, action.id)).status).toBe(200);
  });

  it("logs a follow-up through the customers service, the customer given as an edit", async () => {
    const user = await registerUser(app);
    const created = await call(app, "/api/v1/customers", {
      token: user.accessToken,
      json: { company: "Followed Ltd" },
    });
    expect(created.status).toBe(201);
    const action = await propose(user, {
      type: "log_followup",
      data: { channel: "email", note: "Sent the catalogue", bogus: 1 },
    });
    expect(action.data).toEqual({ channel: "email", note: "Sent the catalogue" });
    // Without a customer the follow-up route's body is incomplete: 422, nothing logged.
    const incomplete = await confirm(user, action.id);
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.errors[0].loc).toEqual(["body", "edits", "customer_id"]);

    const done = await confirm(user, action.id, { edits: { customer_id: created.body.id } });
    expect(done.status).toBe(200);
    expect(done.body.result.followup.note).toBe("Sent the catalogue");
    expect(done.body.result.customer.status).toBe("contacted");
    expect(done.body.result_id).toBe(done.body.result.followup.id);
    expect(await count("followup_logs", sql`customer_id = ${created.body.id}::uuid`)).toBe(1);
    expect((await confirm(user, action.id)).body.replayed).toBe(true);
    expect(await count("followup_logs", sql`customer_id = ${created.body.id}::uuid`)).toBe(1);
  });

  it("a refusal of the owning service rolls everything back: the action stays unperformed", async () => {
    const user = await registerUser(app);
    const action = await propose(user, {
      type: "log_followup",
      data: { channel: "phone", customer_id: crypto.randomUUID() },
    });
    const answer = await confirm(user, action.id);
    expect(answer.status).toBe(404);
    expect((await actionRow(action.id)).performed_at).toBeNull();
  });

  it("answers hostile edits with 422 and a detail, never a 500, and performs nothing", async () => {
    const user = await registerUser(app);
    const action = await propose(user, {
      type: "create_quotation",
      data: { currency: "USD", items: [{ name: "Widget", quantity: 1, unit_price: 1 }] },
    });
    const hostile: unknown[] = [
      { edits: [] },
      { edits: "x" },
      { edits: { items: [1, "a"] } },
      { edits: { items: [{ name: "x".repeat(100_000), quantity: 1, unit_price: 1 }] } },
      { edits: { items: [{ name: "W", quantity: 2 ** 63, unit_price: 1 }] } },
      { edits: { discount: 2 ** 31 } },
      { edits: { currency: "__proto__" } },
      { edits: { constructor: { prototype: { polluted: true } } } },
      { edits: {}, extra: true },
    ];
    for (const json of hostile) {
      const answer = await confirm(user, action.id, json);
      expect(answer.status, JSON.stringify(json).slice(0, 80)).toBe(422);
      expect(typeof answer.body.detail).toBe("string");
    }
    expect(await count("quotations", sql`user_id = ${user.userId}::uuid`)).toBe(0);
    expect((await confirm(user, "not-a-uuid")).status).toBe(422);
  });

  it("creates a quotation through the quotations service", async () => {
    const user = await registerUser(app);
    const action = await propose(user, {
      type: "create_quotation",
      data: { currency: "USD", items: [{ name: "Widget", quantity: 10, unit_price: 1500 }] },
    });
    const bad = await confirm(user, action.id, { edits: { items: [] } });
    expect(bad.status).toBe(422);
    expect(await count("quotations", sql`user_id = ${user.userId}::uuid`)).toBe(0);

    const done = await confirm(user, action.id, { edits: { notes: "From the assistant" } });
    expect(done.status).toBe(200);
    expect(done.body.result.total).toBe(15_000);
    expect(done.body.result.notes).toBe("From the assistant");
    expect(done.body.result_id).toBe(done.body.result.id);
    expect(await count("quotations", sql`user_id = ${user.userId}::uuid`)).toBe(1);
    const again = await confirm(user, action.id);
    expect(again.body.replayed).toBe(true);
    expect(await count("quotations", sql`user_id = ${user.userId}::uuid`)).toBe(1);
  });
});

describe("account data", () => {
  it("exports the account's proposed actions with their outcome", async () => {
    const user = await registerUser(app);
    const company = `Export ${crypto.randomUUID()}`;
    const action = await propose(user, { type: "add_customer", data: { company } });
    expect((await confirm(user, action.id)).status).toBe(200);
    const res = await app.request("/api/v1/users/me/export", {
      headers: { Authorization: `Bearer ${user.accessToken}` },
    });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const actions = JSON.parse(strFromU8(files["ai_actions.json"]!)) as Record<string, unknown>[];
    expect(actions).toEqual([
      expect.objectContaining({
        id: action.id,
        type: "add_customer",
        performed_at: expect.any(String),
      }),
    ]);
  });
});
