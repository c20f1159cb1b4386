import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import { stagesCost } from "../../src/modules/agent/service/budget";
import { adjustCredits } from "../../src/modules/credits/service";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

/**
 * An agent run with a budget (issue #24 item 1, ADR 0108). agent_run costs 10 by default,
 * billed over four stages: the first k started cost 10 - floor(10 * (4 - k) / 4), that is 3, 5,
 * 8, 10. Search and analysis start together (5), outreach brings it to 8, save to 10. A run
 * charged less (max_credits) stops at the boundary where the next stage would pass it, status
 * budget_exhausted, its leads kept and served, the rest refunded; a run with no lead is not
 * charged; every answer carries credits_charged.
 */

const ctx = await createTestContext();
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;
let admin: Session;

const COMPANIES = [
  { name: "Alpha Lighting GmbH", url: "https://alpha.example/", email: "sales@alpha.example" },
  { name: "Beta Licht AG", url: "https://beta.example/", email: "info@beta.example" },
];

/** The discovery analysis lists `companies`; each outreach draft greets its lead. */
function scriptLlm(companies = COMPANIES) {
  llm.reply((messages) => {
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    const user = messages.find((m) => m.role === "user")?.content ?? "";
    if (system.includes("find companies")) {
      return JSON.stringify({
        companies: companies.map((c, i) => ({
          name: c.name,
          website: c.url,
          country: "Germany",
          summary: `${c.name} buys LED panels`,
          fit_score: 90 - i,
          contact: { email: c.email, phone: null },
          sources: [c.url],
        })),
      });
    }
    const company = /Company: (.*)/.exec(user)?.[1] ?? "?";
    return JSON.stringify({ subject: `Panels for ${company}`, body: `Dear ${company}, hello.` });
  });
}

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-h1-agent",
    search: { name: "fake-brave-h1", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
  admin = await registerAdmin(ctx);
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close()]);
});
beforeEach(() => {
  search.fail(null);
  search.results(() => COMPANIES.map((c) => ({ title: c.name, url: c.url, snippet: c.name })));
  scriptLlm();
});

const start = (user: Session, json: Record<string, unknown>) =>
  call(app, "/agent/start", {
    token: user.accessToken,
    json: { product: "LED panel lights", market: "Germany", ...json },
  });
const pipelineOf = async (user: Session, id: string) => {
  const got = await call(app, `/api/v1/agent/${id}`, { token: user.accessToken });
  expect(got.status).toBe(200);
  return got.body;
};
const balanceOf = async (user: Session) =>
  (await call(app, "/api/v1/credits/balance", { token: user.accessToken })).body.balance as number;
const ledgerOf = (userId: string) =>
  queryRows<{ kind: string; delta: number }>(
    deps.db,
    sql`select kind, delta from credit_ledger
        where user_id = ${userId}::uuid and operation = 'agent_run' order by kind`,
  );
const agentCustomers = async (userId: string) =>
  (
    await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from customers where user_id = ${userId}::uuid and source = 'agent'`,
    )
  )[0]!.n;

/** A business user with credits enough for several runs. */
async function seller() {
  const user = await registerBusinessUser(app, deps);
  await adjustCredits(deps, {
    userId: user.userId,
    delta: 100,
    actorId: admin.userId,
    reason: "t",
  });
  return user;
}

describe("stage prices", () => {
  it("splits agent_run's 10 credits over the four stages", () => {
    expect([0, 1, 2, 3, 4].map((k) => stagesCost(10, k))).toEqual([0, 3, 5, 8, 10]);
  });
});

describe("POST /agent/start with max_credits", () => {
  it("stops before outreach when the budget covers search and analysis only; leads kept", async () => {
    const user = await seller();
    const before = await balanceOf(user);
    const started = await start(user, { max_credits: 6 });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: "queued", credits_charged: 6, max_credits: 6 });
    expect(await balanceOf(user)).toBe(before - 6);

    await pendingAgentRuns();
    const run = await pipelineOf(user, started.body.id);
    expect(run.status).toBe("budget_exhausted");
    expect(run.credits_charged).toBe(5);
    expect(run.max_credits).toBe(6);
    expect(run.pipeline_data.stages.map((s: { name: string }) => s.name)).toEqual([
      "search",
      "analysis",
    ]);
    // The leads are kept and served, without drafts; nothing was saved as a customer.
    expect(run.pipeline_data.leads.map((l: { name: string }) => l.name)).toEqual([
      "Alpha Lighting GmbH",
      "Beta Licht AG",
    ]);
    expect(run.pipeline_data.leads.every((l: { outreach: unknown }) => l.outreach === null)).toBe(
      true,
    );
    expect(run.pipeline_data.summary).toMatchObject({
      leads: 2,
      drafted: 0,
      saved: 0,
      stopped_before: "outreach",
    });
    expect(await agentCustomers(user.userId)).toBe(0);
    expect(await balanceOf(user)).toBe(before - 5);
    expect(await ledgerOf(user.userId)).toEqual([
      { kind: "consumption", delta: -6 },
      { kind: "refund", delta: 1 },
    ]);
    // The list says the same.
    const list = await call(app, "/agent/pipelines", { token: user.accessToken });
    expect(list.body.items[0]).toMatchObject({
      id: started.body.id,
      status: "budget_exhausted",
      credits_charged: 5,
    });
  });

  it("stops before save when the budget covers the drafts; drafts kept", async () => {
    const user = await seller();
    const before = await balanceOf(user);
    const started = await start(user, { max_credits: 9 });
    expect(started.status).toBe(202);
    await pendingAgentRuns();
    const run = await pipelineOf(user, started.body.id);
    expect(run.status).toBe("budget_exhausted");
    expect(run.credits_charged).toBe(8);
    expect(run.pipeline_data.summary).toMatchObject({
      leads: 2,
      drafted: 2,
      stopped_before: "save",
    });
    expect(run.pipeline_data.leads[0].outreach).toMatchObject({
      subject: "Panels for Alpha Lighting GmbH",
    });
    expect(await agentCustomers(user.userId)).toBe(0);
    expect(await balanceOf(user)).toBe(before - 8);
  });

  it("a budget below the search's share stops before anything runs and charges nothing", async () => {
    const user = await seller();
    const before = await balanceOf(user);
    const asked = search.requests.length;
    const started = await start(user, { max_credits: 4 });
    expect(started.status).toBe(202);
    expect(started.body.credits_charged).toBe(4);
    await pendingAgentRuns();
    const run = await pipelineOf(user, started.body.id);
    expect(run.status).toBe("budget_exhausted");
    expect(run.credits_charged).toBe(0);
    expect(run.pipeline_data.summary).toMatchObject({ leads: 0, stopped_before: "search" });
    expect(search.requests.length).toBe(asked);
    expect(await balanceOf(user)).toBe(before);
  });

  it("a budget at or above the price runs to the end and charges the price", async () => {
    const user = await seller();
    const before = await balanceOf(user);
    const started = await start(user, { max_credits: 50 });
    expect(started.body.credits_charged).toBe(10);
    await pendingAgentRuns();
    const run = await pipelineOf(user, started.body.id);
    expect(run.status).toBe("succeeded");
    expect(run.credits_charged).toBe(10);
    expect(await agentCustomers(user.userId)).toBe(2);
    expect(await balanceOf(user)).toBe(before - 10);
  });

  it("refuses a max_credits that is not a positive integer", async () => {
    const user = await seller();
    for (const max_credits of [0, -3, 2.5, "7"]) {
      expect((await start(user, { max_credits })).status).toBe(422);
    }
  });
});

describe("a run that finds no lead", () => {
  it("is not charged: the charge is refunded, the balance unchanged", async () => {
    const user = await seller();
    const before = await balanceOf(user);
    scriptLlm([]);
    const started = await start(user, {});
    expect(started.status).toBe(202);
    expect(started.body.credits_charged).toBe(10);
    await pendingAgentRuns();
    const run = await pipelineOf(user, started.body.id);
    expect(run.status).toBe("succeeded");
    expect(run.credits_charged).toBe(0);
    expect(run.pipeline_data.leads).toEqual([]);
    expect(run.pipeline_data.summary).toMatchObject({ leads: 0, saved: 0 });
    expect(await balanceOf(user)).toBe(before);
    expect(await ledgerOf(user.userId)).toEqual([
      { kind: "consumption", delta: -10 },
      { kind: "refund", delta: 10 },
    ]);
  });
});

describe("a quoted run", () => {
  it("charges the quote, capped by max_credits, and the quote is used once", async () => {
    const user = await seller();
    const quoted = await call(app, "/api/v1/credits/quote", {
      token: user.accessToken,
      json: { operation: "agent_run", input: { product: "LED panel lights", market: "Germany" } },
    });
    expect(quoted.status).toBe(201);
    expect(quoted.body.credits).toBe(10);
    const started = await start(user, { quote_id: quoted.body.quote_id, max_credits: 9 });
    expect(started.status).toBe(202);
    expect(started.body.credits_charged).toBe(9);
    const again = await start(user, { quote_id: quoted.body.quote_id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("quote_used");
    await pendingAgentRuns();
    const run = await pipelineOf(user, started.body.id);
    expect(run.status).toBe("budget_exhausted");
    expect(run.credits_charged).toBe(8);
  });
});
