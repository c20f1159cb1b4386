import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { type FakeDeepl, startFakeDeepl } from "../fakes/deepl";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { type Company, createCompany } from "../support/orgs";

// Issue #24 item 6: a reply the seller sent becomes an FAQ candidate, an admin approves it, and
// the assistant answers a question in another language with it, free (ADR 0113).

const ctx = await createTestContext();
const { app, deps } = ctx;
let llm: FakeOpenAi;
let deepl: FakeDeepl;

const QUESTION_EN = "What is your delivery time for the blue widgets?";
const QUESTION_ES = "¿Cuál es su plazo de entrega para los widgets azules?";
const ANSWER_EN = "Our lead time is 25 days after the deposit.";

beforeAll(async () => {
  [llm, deepl] = await Promise.all([startFakeOpenAi("sk-h6-faq"), startFakeDeepl()]);
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "h6-faq-llm",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["chat-model"],
  });
  await addAiProvider(deps, {
    name: "h6-faq-deepl",
    kind: "mt",
    baseUrl: deepl.url,
    apiKey: deepl.apiKey,
  });
  await setAiRouting(deps, "chat", ["h6-faq-llm"]);
});
afterAll(async () => {
  await Promise.all([llm.close(), deepl.close()]);
});
beforeEach(() => {
  llm.reply(() => "The model answered.");
  // The MT tier: this Spanish question is the English one; anything else is tagged.
  deepl.translate((text, target) =>
    text === QUESTION_ES && target === "EN" ? QUESTION_EN : `[${target}] ${text}`,
  );
});

/** A translation of the caller's with reply suggestions, as POST /translate with_replies stores
 * them (each reply with its `id`). */
async function translationWithReplies(user: Session, replies: { id: string; text: string }[]) {
  const [row] = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into translations (user_id, source_text, source_lang, target_lang, translated_text,
          replies, provider, tier, chars)
        values (${user.userId}::uuid, ${QUESTION_EN}, 'EN', 'zh', '你们的交货期是多少？',
          ${JSON.stringify(replies.map((r) => ({ ...r, translation: "我们的交货期是25天。" })))}::jsonb,
          'h6-faq-deepl', 'mt', 40)
        returning id`,
  );
  return row!.id;
}

const accept = (user: Session, replyId: string) =>
  call(app, `/api/v1/ai/replies/${replyId}/accept`, { token: user.accessToken, json: {} });
const faqList = (user: Session, query = "") =>
  call(app, `/api/v1/faq${query}`, { token: user.accessToken });
const patch = (user: Session, id: string, json: unknown) =>
  call(app, `/api/v1/faq/${id}`, { method: "PATCH", token: user.accessToken, json });
const remove = (user: Session, id: string) =>
  call(app, `/api/v1/faq/${id}`, { method: "DELETE", token: user.accessToken });
const chat = (user: Session, message: string) =>
  call(app, "/api/v1/ai/chat", { token: user.accessToken, json: { message } });

async function hitCount(id: string) {
  const [row] = await queryRows<{ hit_count: number }>(
    deps.db,
    sql`select hit_count from org_faqs where id = ${id}::uuid`,
  );
  return row!.hit_count;
}

describe("an accepted reply becomes an FAQ entry that answers in another language", () => {
  let company: Company;
  beforeAll(async () => {
    company = await createCompany(ctx);
  });

  it("accept -> candidate -> admin approves (member cannot) -> a Spanish question is answered free", async () => {
    const replyId = crypto.randomUUID();
    await translationWithReplies(company.member, [
      { id: crypto.randomUUID(), text: "Let me check." },
      { id: replyId, text: ANSWER_EN },
    ]);

    // Someone else's reply (a colleague's included) is not found.
    expect((await accept(company.colleague, replyId)).status).toBe(404);
    expect((await accept(company.member, crypto.randomUUID())).status).toBe(404);

    const first = await accept(company.member, replyId);
    expect(first.status).toBe(201);
    expect(first.body.created).toBe(true);
    expect(first.body.faq).toMatchObject({
      question: QUESTION_EN,
      answer: ANSWER_EN,
      language: "en",
      status: "candidate",
      hit_count: 0,
      source_reply_id: replyId,
    });
    const id = first.body.faq.id as string;
    // Accepting twice is one candidate.
    const again = await accept(company.member, replyId);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.faq.id).toBe(id);
    const [{ n }] = (await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from org_faqs where source_reply_id = ${replyId}`,
    )) as [{ n: number }];
    expect(n).toBe(1);

    // Listed as a candidate to everyone in the organisation, to nobody outside it.
    const candidates = await faqList(company.member, "?status=candidate");
    expect(candidates.status).toBe(200);
    expect(candidates.body.items.map((f: any) => f.id)).toContain(id);
    const outside = await faqList(company.outsider);
    expect(outside.body.items.map((f: any) => f.id)).not.toContain(id);

    // A candidate does not answer: the model does (charged).
    const before = await chat(company.member, QUESTION_ES);
    expect(before.status).toBe(200);
    expect(before.body.message.source).toBe("llm");
    expect(before.body.credits_charged).toBeGreaterThan(0);

    // A member or a manager cannot approve; an admin can.
    expect((await patch(company.member, id, { status: "active" })).status).toBe(403);
    expect((await patch(company.manager, id, { status: "active" })).status).toBe(403);
    expect((await patch(company.outsider, id, { status: "active" })).status).toBe(404);
    const approved = await patch(company.admin, id, { status: "active" });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe("active");

    // The Spanish question finds the English entry through the MT tier: instant and free.
    const llmCalls = llm.requests.length;
    const mtCalls = deepl.requests.length;
    const answered = await chat(company.member, QUESTION_ES);
    expect(answered.status).toBe(200);
    expect(answered.body.message.source).toBe("faq");
    expect(answered.body.message.content).toBe(ANSWER_EN);
    expect(answered.body.credits_charged).toBe(0);
    expect(llm.requests.length).toBe(llmCalls);
    expect(deepl.requests.slice(mtCalls)).toEqual([
      expect.objectContaining({ text: [QUESTION_ES], target_lang: "EN" }),
    ]);
    expect(await hitCount(id)).toBe(1);

    // Asked as written (same language), it matches without MT; each answer counts.
    const direct = await chat(company.colleague, QUESTION_EN);
    expect(direct.body.message.source).toBe("faq");
    expect(await hitCount(id)).toBe(2);
    expect(deepl.requests.length).toBe(mtCalls + 1);

    // Another organisation's chat never sees it.
    const other = await chat(company.outsider, QUESTION_ES);
    expect(other.body.message.source).toBe("llm");
    expect(await hitCount(id)).toBe(2);

    const listed = await faqList(company.member, "?status=active");
    const entry = listed.body.items.find((f: any) => f.id === id);
    expect(entry.hit_count).toBe(2);
    expect(entry.last_hit_at).not.toBeNull();
  });

  it("streams the FAQ answer free as well", async () => {
    const created = await call(app, "/api/v1/faq", {
      token: company.owner.accessToken,
      json: { question: "Do you ship to Brazil by sea?", answer: "Yes, weekly.", language: "en" },
    });
    expect(created.status).toBe(201);
    deepl.translate((text, target) =>
      text === "¿Envían a Brasil por mar?" && target === "EN"
        ? "Do you ship to Brazil by sea?"
        : `[${target}] ${text}`,
    );
    const res = await app.request("/api/v1/ai/chat?stream=true", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${company.manager.accessToken}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ message: "¿Envían a Brasil por mar?" }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain("Yes, weekly.");
    expect(text).toContain('"credits_charged":0');
    expect(await hitCount(created.body.id)).toBe(1);
  });
});

describe("/api/v1/faq CRUD", () => {
  it("admin+ writes, members read, another organisation's id is 404", async () => {
    const company = await createCompany(ctx);
    const body = { question: "What is your MOQ?", answer: "500 pieces.", language: "EN" };
    expect(
      (await call(app, "/api/v1/faq", { token: company.member.accessToken, json: body })).status,
    ).toBe(403);
    expect(
      (await call(app, "/api/v1/faq", { token: company.manager.accessToken, json: body })).status,
    ).toBe(403);
    const bad = await call(app, "/api/v1/faq", {
      token: company.admin.accessToken,
      json: { ...body, language: "English please" },
    });
    expect(bad.status).toBe(422);

    const created = await call(app, "/api/v1/faq", {
      token: company.admin.accessToken,
      json: body,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ language: "en", status: "active", hit_count: 0 });
    const id = created.body.id as string;

    const page = await faqList(company.member, "?size=1");
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 1, page: 1, size: 1 });
    expect(page.body.items[0].id).toBe(id);

    const edited = await patch(company.owner, id, { answer: "300 pieces.", status: "candidate" });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ answer: "300 pieces.", status: "candidate" });
    expect((await patch(company.owner, id, {})).status).toBe(422);

    // Another organisation (its owner is admin+ there) neither changes nor deletes it.
    expect((await patch(company.outsider, id, { answer: "x" })).status).toBe(404);
    expect((await remove(company.outsider, id)).status).toBe(404);
    expect((await remove(company.member, id)).status).toBe(403);
    expect((await faqList(company.outsider)).body.total).toBe(0);

    expect((await remove(company.admin, id)).status).toBe(204);
    expect((await remove(company.admin, id)).status).toBe(404);
    expect((await patch(company.admin, id, { answer: "x" })).status).toBe(404);
    expect((await faqList(company.member)).body.total).toBe(0);
  });
});
