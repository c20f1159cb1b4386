import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import { adjustCredits } from "../../src/modules/credits/service";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

/**
 * Review of #24: a quote is spent by its charge and given back only when that charge is
 * refunded in full (the work failed). An agent run stopped by its max_credits keeps part of its
 * charge (the stages it ran): its partial refund must not make the quote usable again.
 */

const ctx = await createTestContext();
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;
let admin: Session;

const COMPANIES = [{ name: "Alpha Lighting GmbH", url: "https://alpha.example/" }];

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-review-24",
    search: { name: "fake-brave-review-24", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
  admin = await registerAdmin(ctx);
  search.results(() => COMPANIES.map((c) => ({ title: c.name, url: c.url, snippet: c.name })));
  llm.reply(() =>
    JSON.stringify({
      companies: COMPANIES.map((c) => ({
        name: c.name,
        website: c.url,
        country: "Germany",
        summary: `${c.name} buys LED panels`,
        fit_score: 90,
        contact: { email: null, phone: null },
        sources: [c.url],
      })),
    }),
  );
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close()]);
});

describe("a quote after a partial refund", () => {
  it("stays spent when a budget_exhausted run kept part of its charge", async () => {
    const user = await registerBusinessUser(app, deps);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: 100,
      actorId: admin.userId,
      reason: "t",
    });
    const quote = await call(app, "/api/v1/credits/quote", {
      token: user.accessToken,
      json: { operation: "agent_run", input: {} },
    });
    expect(quote.status).toBe(201);
    const body = {
      product: "LED panel lights",
      market: "Germany",
      max_credits: 6,
      quote_id: quote.body.quote_id,
    };
    const first = await call(app, "/agent/start", { token: user.accessToken, json: body });
    expect(first.status).toBe(202);
    await pendingAgentRuns();
    const run = await call(app, `/api/v1/agent/${first.body.id}`, { token: user.accessToken });
    expect(run.body.status).toBe("budget_exhausted");
    expect(run.body.credits_charged).toBe(5);

    const again = await call(app, "/agent/start", { token: user.accessToken, json: body });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("quote_used");
  });
});
