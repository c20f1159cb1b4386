import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import {
  outreachLanguage,
  pendingAgentRuns,
  runAgentPipeline,
  startAgentRun,
  sweepAgentPipelines,
} from "../../src/modules/agent/service";
import {
  adjustCredits,
  chargeCredits,
  getBalance,
  refundCharge,
} from "../../src/modules/credits/service";
import { recoverInstanceWork } from "../../src/modules/inflight/recovery";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import {
  type ApiOptions,
  call,
  expectStatus,
  type Operation,
  type Session,
  api as typed,
} from "../support/client";
import { dyingDatabase } from "../support/dying-database";
import { createTestContext } from "../support/harness";
import { registerBusinessUser, setPlan } from "../support/plans";

let now = new Date();
const clock = { now: () => now };
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;

const COMPANIES = [
  {
    name: "Alpha Lighting GmbH",
    url: "https://alpha-lighting.example/",
    snippet: "Alpha Lighting imports LED panels for offices. Contact Sales@Alpha-Lighting.example",
    email: "Sales@Alpha-Lighting.example",
    fit: 90,
  },
  {
    name: "Beta Licht AG",
    url: "https://beta-licht.example/",
    snippet: "Beta Licht AG is a wholesaler of lamps. info@beta-licht.example",
    email: "info@beta-licht.example",
    fit: 80,
  },
  {
    name: "Gamma Imports",
    url: "https://gamma.example/",
    snippet: "Gamma Imports buys lighting in bulk. buy@gamma.example",
    email: "buy@gamma.example",
    fit: 70,
  },
];

/** The discovery analysis lists COMPANIES; outreach drafts greet the lead (or fail for one). */
function scriptLlm(options: { failOutreachFor?: string; onOutreach?: () => void } = {}) {
  llm.reply((messages) => {
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    const user = messages.find((m) => m.role === "user")?.content ?? "";
    if (system.includes("find companies")) {
      return JSON.stringify({
        companies: COMPANIES.map((c) => ({
          name: c.name,
          website: c.url,
          country: "Germany",
          summary: `${c.name} buys LED panels`,
          fit_score: c.fit,
          contact: { email: c.email, phone: null },
          sources: [c.url],
        })),
      });
    }
    options.onOutreach?.();
    const company = /Company: (.*)/.exec(user)?.[1] ?? "?";
    if (company === options.failOutreachFor) return "{ this is not json";
    return JSON.stringify({ subject: `Panels for ${company}`, body: `Dear ${company}, hello.` });
  });
}

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-agent",
    search: { name: "fake-brave", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close()]);
});
beforeEach(() => {
  now = new Date();
  search.fail(null);
  search.results(() => COMPANIES.map((c) => ({ title: c.name, url: c.url, snippet: c.snippet })));
  scriptLlm();
});

const start = (user: Session, json: unknown, headers: Record<string, string> = {}) =>
  call(app, "/agent/start", { token: user.accessToken, json, headers });
type StartBody = NonNullable<ApiOptions<Operation<"/agent/start", "post">>["json"]>;
/** A start that must be accepted (202), typed by the OpenAPI document (ADR 0095); `start`
 * stays for the error paths. */
const startRun = async (user: Session, json: StartBody, headers: Record<string, string> = {}) => {
  const answer = await typed(app).post("/agent/start", { token: user.accessToken, json, headers });
  expectStatus(answer, 202);
  return answer;
};
/** GET one run of the caller under the legacy or the /api/v1 prefix, typed; asserts 200. */
/** GET the caller's runs under the legacy or the /api/v1 prefix, typed; asserts 200. */
const pipelinesOf = async (
  user: Session,
  prefix: "/agent" | "/api/v1/agent" = "/agent",
  query: { size?: number; page?: number } = {},
) => {
  const answer =
    prefix === "/agent"
      ? await typed(app).get("/agent/pipelines", { token: user.accessToken, query })
      : await typed(app).get("/api/v1/agent/pipelines", { token: user.accessToken, query });
  expectStatus(answer, 200);
  return answer;
};
const pipelineOf = async (
  user: Session,
  id: string,
  prefix: "/agent" | "/api/v1/agent" = "/agent",
) => {
  const answer =
    prefix === "/agent"
      ? await typed(app).get("/agent/{id}", { token: user.accessToken, params: { id } })
      : await typed(app).get("/api/v1/agent/{id}", { token: user.accessToken, params: { id } });
  expectStatus(answer, 200);
  return answer;
};
const balance = async (user: Session) => (await getBalance(deps, user.userId)).balance as number;
const refunds = async (userId: string) =>
  (
    await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from credit_ledger where user_id = ${userId} and kind = 'refund'`,
    )
  )[0]!.n;
const pipelineRows = async (userId: string) =>
  queryRows<{ id: string; status: string; attempts: number; consumption_id: string | null }>(
    deps.db,
    sql`select id, status, attempts, consumption_id from agent_pipelines where user_id = ${userId}`,
  );

async function addCustomer(user: Session, json: Record<string, unknown>) {
  const { status, body } = await call(app, "/api/v1/customers", { token: user.accessToken, json });
  expect(status).toBe(201);
  return body.id as string;
}

describe("POST /agent/start and the in-process run", () => {
  it("charges agent_run, answers 202 queued, and runs search, analysis, outreach and save", async () => {
    const user = await registerBusinessUser(app, deps);
    const other = await registerBusinessUser(app, deps);
    // Duplicates: by company name (case-insensitively) and by e-mail; another user's customer
    // with a lead's name does not count.
    const byName = await addCustomer(user, { company: "beta licht ag" });
    const byEmail = await addCustomer(user, {
      company: "Someone Else",
      email: "BUY@gamma.example",
    });
    await addCustomer(other, { company: "Alpha Lighting GmbH" });
    const before = await balance(user);

    const { status, body } = await startRun(user, {
      product: "LED panel lights",
      market: "Germany",
    });
    expect(status).toBe(202);
    expect(body).toEqual({
      id: expect.any(String),
      status: "queued",
      credits_charged: 10,
      max_credits: null,
    });
    expect(await balance(user)).toBe(before - 10);

    await pendingAgentRuns();
    const got = await pipelineOf(user, body.id);
    expect(got.status).toBe(200);
    const pipeline = got.body;
    expect(pipeline.status).toBe("succeeded");
    expect(pipeline.error).toBeNull();
    expect(pipeline.finished_at).not.toBeNull();
    expect(pipeline.attempts).toBe(1);
    const data = pipeline.pipeline_data;
    expect(data.stages.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ["search", "succeeded"],
      ["analysis", "succeeded"],
      ["outreach", "succeeded"],
      ["save", "succeeded"],
    ]);
    for (const stage of data.stages) {
      expect(stage.started_at).toEqual(expect.any(String));
      expect(stage.finished_at).toEqual(expect.any(String));
    }
    expect(data.stages[0]!.detail!.queries).toHaveLength(3);
    expect(data.stages[1]!.detail!.companies).toBe(3);
    expect(data.stages[3]!.detail).toMatchObject({ saved: 1, duplicates: 2 });
    expect(data.summary).toEqual({ leads: 3, drafted: 3, saved: 1, duplicates: 2 });

    expect(data.leads.map((l: { name: string }) => l.name)).toEqual([
      "Alpha Lighting GmbH",
      "Beta Licht AG",
      "Gamma Imports",
    ]);
    const [alpha, beta, gamma] = data.leads;
    if (!alpha || !beta || !gamma) throw new Error("expected three leads");
    expect(alpha.outreach).toEqual({
      subject: "Panels for Alpha Lighting GmbH",
      body: "Dear Alpha Lighting GmbH, hello.",
      language: "de",
      provider: "llm",
      // States no figure: nothing to check against the catalogue (issue #24).
      claims: [],
      flagged: false,
    });
    expect(alpha.customer_id).toEqual(expect.any(String));
    expect(alpha.duplicate_of).toBeNull();
    expect(beta.customer_id).toBeNull();
    expect(beta.duplicate_of).toBe(byName);
    expect(gamma.duplicate_of).toBe(byEmail);
    // Outreach prompts ask for the market's language and carry the lead's facts.
    const outreachPrompts = llm.requests
      .map((r) => r.messages.find((m) => m.role === "user")!.content)
      .filter((content) => content.includes("<buyer>"));
    expect(outreachPrompts.length).toBeGreaterThanOrEqual(3);
    expect(outreachPrompts.at(-1)).toContain("Language: German");

    const saved = await queryRows<Record<string, unknown>>(
      deps.db,
      sql`select id, company, email, country, source, status, notes from customers
          where user_id = ${user.userId} and source = 'agent'`,
    );
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      id: alpha.customer_id,
      company: "Alpha Lighting GmbH",
      email: "sales@alpha-lighting.example",
      country: "Germany",
      status: "new",
    });
    expect(saved[0]!.notes).toContain("https://alpha-lighting.example/");
    expect(saved[0]!.notes).toContain("Alpha Lighting GmbH buys LED panels");
    const records = await queryRows<{ id: string; product: string; n: number }>(
      deps.db,
      sql`select id, product, jsonb_array_length(companies)::int as n from discovery_records
          where user_id = ${user.userId}`,
    );
    expect(records).toEqual([
      { id: data.stages[3]!.detail!.discovery_record_id, product: "LED panel lights", n: 3 },
    ]);
    // The other user's data is untouched.
    const otherCustomers = await queryRows(
      deps.db,
      sql`select 1 from customers where user_id = ${other.userId}`,
    );
    expect(otherCustomers).toHaveLength(1);
    // Charged once, nothing refunded.
    expect(await balance(user)).toBe(before - 10);
    expect(await refunds(user.userId)).toBe(0);
  });

  it("keeps max_leads best leads and writes English outside the mapped markets", async () => {
    const user = await registerBusinessUser(app, deps);
    const { status, body } = await startRun(user, {
      product: "LED panel lights",
      market: "Kenya",
      max_leads: 2,
    });
    expect(status).toBe(202);
    await pendingAgentRuns();
    const { body: pipeline } = await pipelineOf(user, body.id, "/api/v1/agent");
    expect(pipeline.status).toBe("succeeded");
    expect(pipeline.max_leads).toBe(2);
    expect(pipeline.pipeline_data.leads.map((l: { name: string }) => l.name)).toEqual([
      "Alpha Lighting GmbH",
      "Beta Licht AG",
    ]);
    expect(pipeline.pipeline_data.leads[0]!.outreach!.language).toBe("en");
    expect(pipeline.pipeline_data.summary).toEqual({
      leads: 2,
      drafted: 2,
      saved: 2,
      duplicates: 0,
    });
    expect(outreachLanguage("Brazil")).toEqual({ code: "pt", name: "Portuguese" });
    expect(outreachLanguage("United States")).toEqual({ code: "en", name: "English" });
  });

  it("a lead whose outreach draft fails keeps outreach null with a note; the run succeeds", async () => {
    scriptLlm({ failOutreachFor: "Beta Licht AG" });
    const user = await registerBusinessUser(app, deps);
    const { body } = await startRun(user, { product: "LED panel lights", market: "Germany" });
    await pendingAgentRuns();
    const { body: pipeline } = await pipelineOf(user, body.id);
    expect(pipeline.status).toBe("succeeded");
    const beta = pipeline.pipeline_data.leads.find((l) => l.name === "Beta Licht AG");
    expect(beta?.outreach).toBeNull();
    expect(beta?.note).toMatch(/No outreach draft/);
    expect(JSON.stringify(pipeline)).not.toContain("this is not json");
    expect(pipeline.pipeline_data.summary).toEqual({
      leads: 3,
      drafted: 2,
      saved: 3,
      duplicates: 0,
    });
    expect(pipeline.pipeline_data.stages[2]!.detail).toMatchObject({ drafted: 2, failed: 1 });
    expect(await balance(user)).toBe(20);
  });

  it("the plan's customers limit leaves new leads unsaved; the run still succeeds", async () => {
    // A plan with the agent and room for 2 customers (business itself has no customers limit).
    await queryRows(
      deps.db,
      sql`insert into subscription_plans (code, name, monthly_price, monthly_credits, features,
            limits, tier)
          values ('agent-lite', 'Agent Lite', 1000, 0, '["agent"]'::jsonb,
            '{"customers": 2, "agent_runs_per_month": 10}'::jsonb, 1)
          on conflict (code) do nothing`,
    );
    const user = await registerBusinessUser(app, deps);
    await setPlan(deps, user.userId, "agent-lite");
    await addCustomer(user, { company: "Already here" });

    const { status, body } = await startRun(user, {
      product: "LED panel lights",
      market: "Germany",
    });
    expect(status).toBe(202);
    await pendingAgentRuns();
    const { body: pipeline } = await pipelineOf(user, body.id);
    expect(pipeline.status).toBe("succeeded");
    const note = "2 new lead(s) not saved: the customers limit of your plan (2) is reached";
    expect(pipeline.pipeline_data.summary).toEqual({
      leads: 3,
      drafted: 3,
      saved: 1,
      duplicates: 0,
      not_saved: 2,
      note,
    });
    const [alpha, beta, gamma] = pipeline.pipeline_data.leads;
    if (!alpha || !beta || !gamma) throw new Error("expected three leads");
    expect(alpha.customer_id).toEqual(expect.any(String));
    expect(alpha.not_saved).toBeUndefined();
    for (const lead of [beta, gamma]) {
      expect(lead.customer_id).toBeNull();
      expect(lead.not_saved).toBe("the customers limit of your plan (2) is reached");
    }
    const [{ n }] = (await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from customers where user_id = ${user.userId}`,
    )) as [{ n: number }];
    expect(n).toBe(2);
    expect(await refunds(user.userId)).toBe(0);
  });

  it("search down: the run fails with a user-safe error and the credits come back once", async () => {
    search.fail("http-500");
    const user = await registerBusinessUser(app, deps);
    const { status, body } = await startRun(user, {
      product: "LED panel lights",
      market: "Germany",
    });
    expect(status).toBe(202);
    expect(await balance(user)).toBe(20);
    await pendingAgentRuns();
    const { body: pipeline } = await pipelineOf(user, body.id);
    expect(pipeline.status).toBe("failed");
    expect(pipeline.error).toMatch(/credits for this run were returned/);
    expect(JSON.stringify(pipeline)).not.toContain("secret upstream text");
    expect(pipeline.pipeline_data.stages).toEqual([
      expect.objectContaining({ name: "search", status: "failed" }),
    ]);
    expect(pipeline.pipeline_data.summary).toBeNull();
    expect(await balance(user)).toBe(30);
    expect(await refunds(user.userId)).toBe(1);
    // Nothing saved.
    const saved = await queryRows(
      deps.db,
      sql`select 1 from customers where user_id = ${user.userId}`,
    );
    expect(saved).toHaveLength(0);
    // Another delivery finds nothing to claim; refunding again changes nothing.
    expect(await runAgentPipeline(deps, body.id)).toBe("skipped");
    const [row] = await pipelineRows(user.userId);
    expect(await refundCharge(deps, { consumptionId: row!.consumption_id }, "again")).toMatchObject(
      {
        applied: false,
      },
    );
    expect(await balance(user)).toBe(30);
    expect(await refunds(user.userId)).toBe(1);
  });

  it("402 when the balance is short: nothing written", async () => {
    const user = await registerBusinessUser(app, deps);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -25,
      actorId: user.userId,
      reason: "t",
    });
    const { status, body } = await start(user, { product: "LED panel lights", market: "Germany" });
    expect(status).toBe(402);
    expect(body).toMatchObject({ required: 10, balance: 5 });
    expect(await pipelineRows(user.userId)).toHaveLength(0);
    expect(await balance(user)).toBe(5);
    const usage = await queryRows(
      deps.db,
      sql`select 1 from usage_logs where user_id = ${user.userId} and event = 'agent_run'`,
    );
    expect(usage).toHaveLength(0);
  });

  it("bad input is 422 and charges nothing", async () => {
    const user = await registerBusinessUser(app, deps);
    for (const json of [
      { product: "", market: "Germany" },
      { product: "x".repeat(201), market: "Germany" },
      { product: "LED", market: "" },
      { product: "LED", market: "Germany", max_leads: 0 },
      { product: "LED", market: "Germany", max_leads: 51 },
      { product: "LED", market: "Germany", max_leads: 2.5 },
      { market: "Germany" },
    ]) {
      const { status } = await start(user, json);
      expect(status).toBe(422);
    }
    expect(await pipelineRows(user.userId)).toHaveLength(0);
    expect(await balance(user)).toBe(30);
  });

  it("an Idempotency-Key retry replays the first answer and charges once", async () => {
    const user = await registerBusinessUser(app, deps);
    const json = { product: "LED panel lights", market: "Germany" };
    const first = await startRun(user, json, { "Idempotency-Key": "agent-key-1" });
    const second = await startRun(user, json, { "Idempotency-Key": "agent-key-1" });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    await pendingAgentRuns();
    expect(await pipelineRows(user.userId)).toHaveLength(1);
    expect(await balance(user)).toBe(20);
  });

  it("requires authentication", async () => {
    const { status } = await call(app, "/agent/start", {
      json: { product: "LED", market: "Germany" },
    });
    expect(status).toBe(401);
  });
});

describe("GET /agent/pipelines and /agent/{id}", () => {
  it("lists the caller's pipelines newest first under both prefixes, without pipeline_data", async () => {
    const user = await registerBusinessUser(app, deps);
    const other = await registerBusinessUser(app, deps);
    const a = (await startRun(user, { product: "First", market: "Germany" })).body.id;
    await pendingAgentRuns();
    now = new Date(now.getTime() + 1000);
    const b = (await startRun(user, { product: "Second", market: "France" })).body.id;
    await startRun(other, { product: "Other", market: "Spain" });
    await pendingAgentRuns();
    for (const prefix of ["/agent", "/api/v1/agent"] as const) {
      const { body } = await pipelinesOf(user, prefix);
      expect(body.total).toBe(2);
      expect(body.items.map((p) => p.id)).toEqual([b, a]);
      expect(body.items[0]).toMatchObject({
        product: "Second",
        market: "France",
        status: "succeeded",
        summary: { leads: 3, drafted: 3 },
      });
      expect(body.items[0]!.finished_at).toEqual(expect.any(String));
      expect(body.items[0]).not.toHaveProperty("pipeline_data");
    }
    const paged = await pipelinesOf(user, "/agent", { size: 1, page: 2 });
    expect(paged.body).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(paged.body.items.map((p) => p.id)).toEqual([a]);
    expect((await call(app, "/agent/pipelines?size=0", { token: user.accessToken })).status).toBe(
      422,
    );
  });

  it("reads one pipeline under both prefixes; another user's is 404; a non-UUID id is 422", async () => {
    const user = await registerBusinessUser(app, deps);
    const other = await registerBusinessUser(app, deps);
    const id = (await startRun(user, { product: "LED", market: "Germany" })).body.id;
    await pendingAgentRuns();
    for (const prefix of ["/agent", "/api/v1/agent"] as const) {
      const mine = await pipelineOf(user, id, prefix);
      expect(mine.status).toBe(200);
      expect(mine.body.id).toBe(id);
      expect(mine.body.pipeline_data.leads).toHaveLength(3);
      const theirs = await call(app, `${prefix}/${id}`, { token: other.accessToken });
      expect(theirs.status).toBe(404);
      const listed = await pipelinesOf(other, prefix);
      expect(listed.body.items.map((p) => p.id)).not.toContain(id);
      expect((await call(app, `${prefix}/not-a-uuid`, { token: user.accessToken })).status).toBe(
        422,
      );
      expect((await call(app, `${prefix}/${id}`)).status).toBe(401);
    }
    const missing = await call(app, "/agent/0190d4c8-7b5e-7000-8000-000000000000", {
      token: user.accessToken,
    });
    expect(missing.status).toBe(404);
  });
});

describe("leases, attempts and the sweep", () => {
  async function insertPipeline(
    user: Session,
    fields: { status: string; attempts: number; leaseUntil: Date | null; createdAt?: Date },
  ) {
    const charge = await chargeCredits(deps, { userId: user.userId, operation: "agent_run" });
    const [row] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into agent_pipelines (user_id, status, product, market, max_leads, consumption_id,
            attempts, lease_until, created_at)
          values (${user.userId}, ${fields.status}, 'LED panel lights', 'Germany', 3,
            ${charge.consumptionId}, ${fields.attempts}, ${fields.leaseUntil?.toISOString() ?? null},
            ${(fields.createdAt ?? now).toISOString()})
          returning id`,
    );
    return row!.id;
  }
  const statusOf = async (id: string) =>
    (
      await queryRows<{ status: string; attempts: number; error: string | null }>(
        deps.db,
        sql`select status, attempts, error from agent_pipelines where id = ${id}`,
      )
    )[0]!;

  it("a running pipeline under a live lease is not claimed; after the lease expires it re-runs", async () => {
    const user = await registerBusinessUser(app, deps);
    const id = await insertPipeline(user, {
      status: "running",
      attempts: 1,
      leaseUntil: new Date(now.getTime() + 5 * 60_000),
    });
    expect(await runAgentPipeline(deps, id)).toBe("skipped");
    expect(await statusOf(id)).toMatchObject({ status: "running", attempts: 1 });
    now = new Date(now.getTime() + 11 * 60_000);
    expect(await runAgentPipeline(deps, id)).toBe("succeeded");
    expect(await statusOf(id)).toMatchObject({ status: "succeeded", attempts: 2, error: null });
    expect(await runAgentPipeline(deps, id)).toBe("skipped");
    expect(await balance(user)).toBe(20);
  });

  it("the claim after 3 attempts fails the run and refunds it once", async () => {
    const user = await registerBusinessUser(app, deps);
    const id = await insertPipeline(user, {
      status: "running",
      attempts: 3,
      leaseUntil: new Date(now.getTime() - 60_000),
    });
    expect(await balance(user)).toBe(20);
    expect(await runAgentPipeline(deps, id)).toBe("failed");
    const row = await statusOf(id);
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/after 3 attempts/);
    expect(await balance(user)).toBe(30);
    expect(await runAgentPipeline(deps, id)).toBe("skipped");
    expect(await refunds(user.userId)).toBe(1);
    expect(await balance(user)).toBe(30);
    // Nothing was searched for it.
    const saved = await queryRows(
      deps.db,
      sql`select 1 from customers where user_id = ${user.userId}`,
    );
    expect(saved).toHaveLength(0);
  });

  it("the sweep runs expired leases and queued runs older than 5 minutes, and nothing else", async () => {
    const user = await registerBusinessUser(app, deps);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: 10,
      actorId: user.userId,
      reason: "t",
    });
    const staleQueued = await insertPipeline(user, {
      status: "queued",
      attempts: 0,
      leaseUntil: null,
      createdAt: new Date(now.getTime() - 6 * 60_000),
    });
    const expired = await insertPipeline(user, {
      status: "running",
      attempts: 1,
      leaseUntil: new Date(now.getTime() - 1000),
      createdAt: new Date(now.getTime() - 20 * 60_000),
    });
    const freshQueued = await insertPipeline(user, {
      status: "queued",
      attempts: 0,
      leaseUntil: null,
    });
    const leased = await insertPipeline(user, {
      status: "running",
      attempts: 1,
      leaseUntil: new Date(now.getTime() + 60_000),
      createdAt: new Date(now.getTime() - 30 * 60_000),
    });
    const result = await sweepAgentPipelines(deps);
    expect(result).toEqual({ found: 2, published: 0, ran: 2 });
    expect((await statusOf(staleQueued)).status).toBe("succeeded");
    expect(await statusOf(expired)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect((await statusOf(freshQueued)).status).toBe("queued");
    expect((await statusOf(leased)).status).toBe("running");
    // Each customer once although two runs found the same companies.
    const saved = await queryRows(
      deps.db,
      sql`select 1 from customers where user_id = ${user.userId} and source = 'agent'`,
    );
    expect(saved).toHaveLength(3);
  });
});

describe("a run whose instance died mid-run", () => {
  it("is resumed by that instance at its restart from the stage it reached: no second search, only the drafts left", async () => {
    const user = await registerBusinessUser(app, deps);
    const before = await balance(user);
    const dying = dyingDatabase(ctx.database);
    const a = await ctx.makeInstance({ database: dying.database }, { INSTANCE_ID: "agent-dies" });
    // The instance is killed as the first outreach draft is asked for: search and analysis are
    // done and checkpointed, no draft is recorded yet.
    scriptLlm({
      onOutreach: () => {
        dying.kill();
        a.deps.work.stop();
      },
    });
    const started = await startAgentRun(
      a.deps,
      { userId: user.userId, ip: null },
      { product: "LED panels", market: "Germany", max_leads: 3 },
      undefined,
    );
    await pendingAgentRuns();
    // The run ended at its first failed write while its other outreach lanes may still have a
    // request on the way to the model: wait until no more arrive before counting.
    for (let seen = -1, quiet = 0; quiet < 30; ) {
      quiet = llm.requests.length === seen ? quiet + 1 : 0;
      seen = llm.requests.length;
      await new Promise((r) => setTimeout(r, 10));
    }
    const [left] = await queryRows<{
      status: string;
      attempts: number;
      instance_id: string;
      stages: string[];
      checkpointed: boolean;
    }>(
      deps.db,
      sql`select status, attempts, instance_id, checkpoint is not null as checkpointed,
            (select jsonb_agg(s ->> 'name' || ':' || (s ->> 'status'))
             from jsonb_array_elements(pipeline_data -> 'stages') s) as stages
          from agent_pipelines where id = ${started.id}`,
    );
    expect(left).toEqual({
      status: "running",
      attempts: 1,
      instance_id: "agent-dies",
      stages: ["search:succeeded", "analysis:succeeded", "outreach:running"],
      checkpointed: true,
    });
    // One draft had been written before the kill (drafts are recorded one by one).
    await queryRows(
      deps.db,
      sql`update agent_pipelines set pipeline_data = jsonb_set(pipeline_data, '{leads,0,outreach}',
            '{"subject": "Kept from the first attempt", "body": "Dear buyer", "language": "de", "provider": "llm"}')
          where id = ${started.id}`,
    );

    scriptLlm();
    const searches = search.requests.length;
    const asked = llm.requests.length;
    const restarted = await ctx.makeInstance({}, { INSTANCE_ID: "agent-dies" });
    expect(await recoverInstanceWork(restarted.deps)).toMatchObject({ runs: 1 });
    await pendingAgentRuns();

    const { status, body } = await pipelineOf(user, started.id);
    expect(status).toBe(200);
    expect(body.status).toBe("succeeded");
    expect(search.requests.length).toBe(searches);
    const prompts = llm.requests.slice(asked).map((r) => r.messages.at(-1)?.content ?? "");
    expect(prompts).toHaveLength(2);
    expect(prompts.every((p) => p.includes("Company:"))).toBe(true);
    const leads = body.pipeline_data.leads as { name: string; outreach: { subject: string } }[];
    expect(leads[0]!.outreach.subject).toBe("Kept from the first attempt");
    expect(leads.slice(1).map((l) => l.outreach.subject)).toEqual(
      leads.slice(1).map((l) => `Panels for ${l.name}`),
    );
    expect(body.pipeline_data.summary).toMatchObject({ leads: 3, drafted: 3, saved: 3 });
    const outreach = (body.pipeline_data.stages as { name: string; detail: unknown }[]).find(
      (stage) => stage.name === "outreach",
    );
    expect(outreach?.detail).toMatchObject({ resumed_at_attempt: 2, drafted: 3 });
    // Charged once for the run, never refunded; the checkpoint is not kept after the run.
    expect(await balance(user)).toBe(before - (await agentRunCost()));
    expect(await refunds(user.userId)).toBe(0);
    const [row] = await queryRows<{ checkpoint: unknown; attempts: number }>(
      deps.db,
      sql`select checkpoint, attempts from agent_pipelines where id = ${started.id}`,
    );
    expect(row).toEqual({ checkpoint: null, attempts: 2 });
  });
});

async function agentRunCost() {
  const [row] = await queryRows<{ cost: number }>(
    deps.db,
    sql`select (value ->> 'agent_run')::int as cost from system_config where key = 'credits.costs'`,
  );
  return row!.cost;
}
