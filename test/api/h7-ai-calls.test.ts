import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingJobs } from "../../src/modules/jobs/background";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, expectStatus, registerUser, type Session, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// Issue #24 item 7: every AI call on record (ai_calls), GET /api/v1/ai/usage for the seller
// and GET /api/v1/admin/ai-calls and the per-provider admin stats for the operator, against
// the fake OpenAI-compatible servers. Each provider attempt is one row, written off the
// request's path: the tests wait for those writes (pendingJobs) before reading.

const ctx = await createTestContext();
const { app, deps } = ctx;
const admin = await registerAdmin(ctx);
let writer: FakeOpenAi;
let broken: FakeOpenAi;

const USAGE = "/api/v1/ai/usage" as const;
const ADMIN_CALLS = "/api/v1/admin/ai-calls" as const;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  writer = await startFakeOpenAi("sk-writer");
  broken = await startFakeOpenAi("sk-broken");
});
afterAll(async () => {
  await writer.close();
  await broken.close();
});

/** Providers with names unique to the test, so the admin's list can be filtered to them. */
let names: { writer: string; broken: string };
let seq = 0;
beforeEach(async () => {
  seq += 1;
  names = { writer: `writer-${seq}`, broken: `broken-${seq}` };
  writer.fail(null);
  writer.reply(() => "Dear buyer, meet the SG-20 garden light.");
  broken.fail("http-500");
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: names.writer,
    kind: "llm",
    baseUrl: writer.url,
    apiKey: writer.apiKey,
    models: ["gpt-writer"],
  });
  await addAiProvider(deps, {
    name: names.broken,
    kind: "llm",
    baseUrl: broken.url,
    apiKey: broken.apiKey,
    models: ["gpt-broken"],
    timeoutMs: 2000,
  });
  await setAiRouting(deps, "marketing", [names.writer]);
  await setAiRouting(deps, "chat", [names.writer]);
});

const generate = async (user: Session) => {
  const answer = await typed(app).post("/api/v1/marketing/generate", {
    token: user.accessToken,
    json: { kind: "email", audience: "Garden centre chains in Germany", language: "en" },
  });
  await pendingJobs();
  return answer;
};

/** A call as GET /ai/usage and /admin/ai-calls list it (API.md "AI a seller can rely on"). */
interface AiCallItem {
  id: string;
  task: string;
  provider: string;
  model: string;
  tokens_in: number | null;
  tokens_out: number | null;
  latency_ms: number;
  outcome: string;
  credits: number;
  user_id: string | null;
  created_at: string;
  org_id?: string | null;
  consumption_id?: string | null;
}
interface AiCallPage {
  items: AiCallItem[];
  total: number;
  page: number;
  size: number;
}

// Through call(): the typed client is regenerated from the document by the integrator.
const listed = async (path: string, user: Session, query: Record<string, string | number>) => {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const answer = await call(app, `${path}?${search}`, { token: user.accessToken });
  expect(answer.status).toBe(200);
  return answer.body as AiCallPage;
};
const usage = (user: Session, query: Record<string, string | number> = {}) =>
  listed(USAGE, user, query);
const adminCalls = (query: Record<string, string | number> = {}) =>
  listed(ADMIN_CALLS, admin, query);

const consumptionsOf = (userId: string) =>
  queryRows<{ id: string; cost: number; status: string }>(
    deps.db,
    sql`select id, cost, status from credit_consumptions where user_id = ${userId}
        order by created_at`,
  );

describe("every AI call on record", () => {
  it("records a billed call with its tokens, latency, credits and consumption", async () => {
    const user = await registerUser(app);
    const answer = await generate(user);
    expectStatus(answer, 201);

    const page = await usage(user);
    expect(page.total).toBe(1);
    expect(page.page).toBe(1);
    const [row] = page.items;
    const sent = writer.requests.at(-1)!;
    expect(row).toEqual({
      id: expect.any(String),
      task: "marketing",
      provider: names.writer,
      model: "gpt-writer",
      // The fake reports prompt_tokens as the prompt's characters, completion_tokens the answer's.
      tokens_in: sent.messages.reduce((n, m) => n + m.content.length, 0),
      tokens_out: "Dear buyer, meet the SG-20 garden light.".length,
      latency_ms: expect.any(Number),
      outcome: "ok",
      credits: 3,
      user_id: user.userId,
      created_at: expect.any(String),
    });
    expect(row!.latency_ms).toBeGreaterThanOrEqual(0);

    // Linked to the charge, in the caller's organisation.
    const [consumption] = await consumptionsOf(user.userId);
    const [stored] = await queryRows<{ consumption_id: string; org_id: string }>(
      deps.db,
      sql`select consumption_id, org_id from ai_calls where id = ${row!.id}`,
    );
    expect(stored!.consumption_id).toBe(consumption!.id);
    expect(stored!.org_id).toBe(await orgIdOf(ctx.database, user));
  });

  it("records a failed provider and the one that answered: two rows, error then ok", async () => {
    await setAiRouting(deps, "marketing", [names.broken, names.writer]);
    const user = await registerUser(app);
    expectStatus(await generate(user), 201);

    const page = await usage(user);
    expect(page.total).toBe(2);
    // Newest first: the answer, then the failure before it.
    const [ok, failed] = page.items;
    expect(failed).toMatchObject({
      provider: names.broken,
      model: "gpt-broken",
      outcome: "error",
      credits: 0,
      tokens_in: null,
      tokens_out: null,
    });
    expect(ok).toMatchObject({ provider: names.writer, outcome: "ok", credits: 3 });
    // Both attempts belong to the one charge.
    const [consumption] = await consumptionsOf(user.userId);
    const linked = await queryRows<{ consumption_id: string }>(
      deps.db,
      sql`select consumption_id from ai_calls where user_id = ${user.userId}`,
    );
    expect(linked.map((r) => r.consumption_id)).toEqual([consumption!.id, consumption!.id]);
  });

  it("records a call that ran out of time as a timeout", async () => {
    await clearAiProviders(deps);
    await addAiProvider(deps, {
      name: names.broken,
      kind: "llm",
      baseUrl: broken.url,
      apiKey: broken.apiKey,
      models: ["gpt-broken"],
      timeoutMs: 1000,
    });
    await addAiProvider(deps, {
      name: names.writer,
      kind: "llm",
      baseUrl: writer.url,
      apiKey: writer.apiKey,
      models: ["gpt-writer"],
    });
    await setAiRouting(deps, "marketing", [names.broken, names.writer]);
    broken.fail("hang");
    const user = await registerUser(app);
    expectStatus(await generate(user), 201);
    const page = await usage(user, { outcome: "timeout" });
    expect(page.items.map((i) => [i.provider, i.outcome, i.credits])).toEqual([
      [names.broken, "timeout", 0],
    ]);
  });

  it("a call that answered nothing usable costs nothing: every attempt recorded, no credits", async () => {
    await setAiRouting(deps, "marketing", [names.broken]);
    const user = await registerUser(app);
    const answer = await generate(user);
    expect(answer.status).toBe(503);
    const page = await usage(user);
    expect(page.items.map((i) => [i.outcome, i.credits])).toEqual([["error", 0]]);
    const [consumption] = await consumptionsOf(user.userId);
    expect(consumption!.status).toBe("refunded");
  });

  it("records an answer the feature could not use as unusable, and the retry that answered", async () => {
    // From-inquiry wants JSON: the first provider answers prose-wrapped broken JSON, the next
    // a valid extraction.
    await setAiRouting(deps, "quotation_from_inquiry", [names.broken, names.writer]);
    broken.fail(null);
    broken.reply(() => '{"items": [oops');
    writer.reply(() =>
      JSON.stringify({
        language: "en",
        items: [{ name: "Solar garden light", quantity: 500, unit: "pcs" }],
      }),
    );
    const user = await registerUser(app);
    const answer = await call(app, "/api/v1/quotations/from-inquiry", {
      token: user.accessToken,
      json: { inquiry_text: "Please quote 500 pcs of solar garden lights, FOB Ningbo." },
    });
    expect(answer.status).toBe(201);
    await pendingJobs();
    const page = await usage(user, { task: "quotation_from_inquiry" });
    expect(page.items.map((i) => [i.provider, i.outcome, i.credits])).toEqual([
      [names.writer, "ok", 2],
      [names.broken, "unusable", 0],
    ]);
    expect(page.items[1]!.tokens_out).toBe('{"items": [oops'.length);
  });

  it("shows a charge refunded after the answer as 0 credits", async () => {
    const user = await registerUser(app);
    expectStatus(await generate(user), 201);
    const [consumption] = await consumptionsOf(user.userId);
    await queryRows(
      deps.db,
      sql`update credit_consumptions set status = 'refunded', refunded_at = now()
          where id = ${consumption!.id}`,
    );
    const page = await usage(user);
    expect(page.items.map((i) => [i.outcome, i.credits])).toEqual([["ok", 0]]);
  });

  it("records a streamed chat with the tokens of the stream's usage chunk", async () => {
    writer.reply(() => "A streamed answer about incoterms and ports.");
    const user = await registerUser(app);
    const streamed = await call(app, "/api/v1/ai/chat?stream=true", {
      token: user.accessToken,
      json: { message: "Tell me about incoterms" },
    });
    expect(streamed.status).toBe(200);
    await pendingJobs();
    // The stream asked for its usage (stream_options.include_usage) and the fake sent it.
    const sent = writer.requests.at(-1)!;
    expect(sent.stream).toBe(true);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    const page = await usage(user, { task: "chat" });
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      provider: names.writer,
      outcome: "ok",
      tokens_in: sent.messages.reduce((n, m) => n + m.content.length, 0),
      tokens_out: "A streamed answer about incoterms and ports.".length,
      credits: 1,
    });
  });

  it("records a stream that broke off as an error, with no credits", async () => {
    writer.reply(() => "A streamed answer that will not arrive in full, cut after two chunks.");
    writer.fail("cut-stream");
    const user = await registerUser(app);
    const streamed = await call(app, "/api/v1/ai/chat?stream=true", {
      token: user.accessToken,
      json: { message: "Tell me about ports" },
    });
    // Broken before or after the first chunk (503, or an SSE error event): the same record.
    expect([200, 503]).toContain(streamed.status);
    await pendingJobs();
    const page = await usage(user, { task: "chat" });
    expect(page.items.map((i) => [i.provider, i.outcome, i.credits])).toEqual([
      [names.writer, "error", 0],
    ]);
  });
});

describe("GET /api/v1/ai/usage", () => {
  it("shows a member their own calls, a manager the organisation's, never another's", async () => {
    const company = await createCompany(ctx);
    for (const user of [company.member, company.colleague, company.manager, company.outsider]) {
      expectStatus(await generate(user), 201);
    }
    const mine = await usage(company.member);
    expect(mine.items.map((i) => i.user_id)).toEqual([company.member.userId]);

    const org = await usage(company.manager);
    expect(org.total).toBe(3);
    expect(new Set(org.items.map((i) => i.user_id))).toEqual(
      new Set([company.member.userId, company.colleague.userId, company.manager.userId]),
    );
    // The owner sees the organisation's too; the other organisation's owner only their own.
    expect((await usage(company.owner)).total).toBe(3);
    const outsider = await usage(company.outsider);
    expect(outsider.items.map((i) => i.user_id)).toEqual([company.outsider.userId]);
  });

  it("filters by task, outcome and dates, and pages", async () => {
    await setAiRouting(deps, "marketing", [names.broken, names.writer]);
    const user = await registerUser(app);
    expectStatus(await generate(user), 201);
    expectStatus(await generate(user), 201);
    expect((await usage(user)).total).toBe(4);
    expect((await usage(user, { outcome: "error" })).total).toBe(2);
    expect((await usage(user, { task: "chat" })).total).toBe(0);
    expect((await usage(user, { task: "marketing", outcome: "ok" })).total).toBe(2);
    expect((await usage(user, { start_date: today(), end_date: today() })).total).toBe(4);
    expect((await usage(user, { end_date: "2020-01-01" })).total).toBe(0);
    const second = await usage(user, { page: 2, size: 3 });
    expect(second).toMatchObject({ total: 4, page: 2, size: 3 });
    expect(second.items).toHaveLength(1);
  });

  it("refuses bad filters with 422 and a missing token with 401", async () => {
    const user = await registerUser(app);
    expect((await call(app, `${USAGE}?outcome=maybe`, { token: user.accessToken })).status).toBe(
      422,
    );
    expect(
      (
        await call(app, `${USAGE}?start_date=2026-02-01&end_date=2026-01-01`, {
          token: user.accessToken,
        })
      ).status,
    ).toBe(422);
    expect((await call(app, USAGE)).status).toBe(401);
  });
});

describe("GET /api/v1/admin/ai-calls and the stats per provider", () => {
  it("lists every call with filters by task, provider, outcome and date", async () => {
    await setAiRouting(deps, "marketing", [names.broken, names.writer]);
    const [one, two] = [await registerUser(app), await registerUser(app)];
    expectStatus(await generate(one), 201);
    expectStatus(await generate(two), 201);

    const failed = await adminCalls({ provider: names.broken });
    expect(failed.total).toBe(2);
    expect(failed.items.every((i) => i.outcome === "error" && i.credits === 0)).toBe(true);
    expect(new Set(failed.items.map((i) => i.user_id))).toEqual(new Set([one.userId, two.userId]));

    const answered = await adminCalls({ provider: names.writer, outcome: "ok", task: "marketing" });
    expect(answered.total).toBe(2);
    const [consumption] = await consumptionsOf(two.userId);
    expect(answered.items[0]).toMatchObject({
      user_id: two.userId,
      org_id: await orgIdOf(ctx.database, two),
      consumption_id: consumption!.id,
      credits: 3,
    });
    expect((await adminCalls({ provider: names.writer, outcome: "error" })).total).toBe(0);
    expect((await adminCalls({ provider: names.writer, task: "chat" })).total).toBe(0);
    expect((await adminCalls({ provider: names.writer, start_date: "2099-01-01" })).total).toBe(0);
    expect(
      (await adminCalls({ provider: names.writer, start_date: today(), end_date: today() })).total,
    ).toBe(2);
  });

  it("is for admins only", async () => {
    const user = await registerUser(app);
    expect((await call(app, ADMIN_CALLS, { token: user.accessToken })).status).toBe(403);
    expect((await call(app, ADMIN_CALLS)).status).toBe(401);
  });

  it("shows each provider's calls, failure rate, tokens, credits and latency in the stats", async () => {
    await setAiRouting(deps, "marketing", [names.broken, names.writer]);
    const user = await registerUser(app);
    expectStatus(await generate(user), 201);
    expectStatus(await generate(user), 201);
    // A third request on the working provider alone.
    await setAiRouting(deps, "marketing", [names.writer]);
    expectStatus(await generate(user), 201);

    const answer = await call(app, "/api/v1/admin/stats", { token: admin.accessToken });
    expect(answer.status).toBe(200);
    const providers = (answer.body as { ai_providers: Record<string, number | string>[] })
      .ai_providers;
    const byName = new Map(providers.map((p) => [p.provider, p]));
    expect(byName.get(names.broken)).toMatchObject({
      calls: 2,
      failures: 2,
      failure_rate: 1,
      tokens_in: 0,
      tokens_out: 0,
      credits: 0,
    });
    const ok = byName.get(names.writer)!;
    expect(ok).toMatchObject({ calls: 3, failures: 0, failure_rate: 0, credits: 9 });
    expect(ok.tokens_in as number).toBeGreaterThan(0);
    expect(ok.tokens_out).toBe(3 * "Dear buyer, meet the SG-20 garden light.".length);
    expect(ok.avg_latency_ms as number).toBeGreaterThanOrEqual(0);
  });
});

describe("account data", () => {
  it("exports the account's calls and deletes them with the account", async () => {
    const user = await registerUser(app);
    expectStatus(await generate(user), 201);
    const res = await app.request("/api/v1/users/me/export", {
      headers: { Authorization: `Bearer ${user.accessToken}` },
    });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const calls = JSON.parse(strFromU8(files["ai_calls.json"]!)) as Record<string, unknown>[];
    expect(calls.map((c) => [c.user_id, c.task, c.outcome])).toEqual([
      [user.userId, "marketing", "ok"],
    ]);

    const deleted = await call(app, "/api/v1/users/me", {
      method: "DELETE",
      token: user.accessToken,
      csrf: user.csrfToken,
      json: { password: user.password },
    });
    expect(deleted.status).toBe(204);
    const [left] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from ai_calls where user_id = ${user.userId}`,
    );
    expect(left!.n).toBe(0);
  });
});
