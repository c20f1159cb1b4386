import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import { adjustCredits } from "../../src/modules/credits/service";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

/**
 * The agent's outreach drafts state only the seller's own numbers (issue #24 item 3): written
 * with the facts of the run's product, every price checked against the catalogue, a wrong one
 * written again once, then flagged on the lead's draft.
 */

const ctx = await createTestContext();
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;
let admin: Session;

const COMPANY = { name: "Alpha Lighting GmbH", url: "https://alpha.example/" };

/** Outreach prompts seen by the fake model, and what its drafts say of the price. */
let prompts: string[] = [];
let prices: string[] = [];

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-outreach-claims",
    search: { name: "fake-brave-claims", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
  admin = await registerAdmin(ctx);
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close()]);
});
beforeEach(() => {
  prompts = [];
  search.results(() => [{ title: COMPANY.name, url: COMPANY.url, snippet: COMPANY.name }]);
  llm.reply((messages) => {
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    if (system.includes("find companies")) {
      return JSON.stringify({
        companies: [
          {
            name: COMPANY.name,
            website: COMPANY.url,
            country: "Germany",
            summary: "Imports LED panels for offices",
            fit_score: 90,
            contact: { email: "sales@alpha.example", phone: null },
            sources: [COMPANY.url],
          },
        ],
      });
    }
    prompts.push(messages.map((m) => m.content).join("\n"));
    const price = prices[Math.min(prompts.length - 1, prices.length - 1)]!;
    return JSON.stringify({
      subject: "LED panel lights for Alpha Lighting",
      body: `Dear Alpha Lighting team,\n\nour LED panel light 600x600 costs ${price} per piece, ready for your offices. Could we send you a sample?\n\nBest regards,\n[Your name]`,
    });
  });
});

async function sellerWithPanel() {
  const user = await registerBusinessUser(app, deps);
  await adjustCredits(deps, { userId: user.userId, delta: 50, actorId: admin.userId, reason: "t" });
  const product = await call(app, "/api/v1/products", {
    token: user.accessToken,
    json: { name: "LED panel light 600x600", sku: "LP-600", price: 1250, currency: "USD" },
  });
  expect(product.status).toBe(201);
  return { user, productId: product.body.id as string };
}

async function outreachOf(user: Session) {
  const started = await call(app, "/agent/start", {
    token: user.accessToken,
    json: { product: "LED panel light 600x600", market: "Germany" },
  });
  expect(started.status).toBe(202);
  await pendingAgentRuns();
  const run = await call(app, `/api/v1/agent/${started.body.id}`, { token: user.accessToken });
  expect(run.status).toBe(200);
  expect(run.body.status).toBe("succeeded");
  return run.body.pipeline_data.leads[0].outreach;
}

describe("agent outreach claims", () => {
  it("writes with the product's facts and keeps a draft quoting the catalogue price", async () => {
    const { user, productId } = await sellerWithPanel();
    prices = ["USD 12.50"];
    const outreach = await outreachOf(user);
    expect(prompts[0]).toContain("LP-600");
    expect(prompts).toHaveLength(1);
    expect(outreach.flagged).toBe(false);
    expect(outreach.claims).toEqual([
      expect.objectContaining({ kind: "price", verified: true, product_id: productId }),
    ]);
  });

  it("writes a draft with a price not in the catalogue again once, naming it", async () => {
    const { user } = await sellerWithPanel();
    prices = ["USD 9.90", "USD 12.50"];
    const outreach = await outreachOf(user);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain("9.90");
    expect(outreach.body).toContain("12.50");
    expect(outreach.flagged).toBe(false);
    expect(outreach.claims.every((c: { verified: boolean }) => c.verified)).toBe(true);
  });

  it("flags a draft still quoting a wrong price after the rewrite", async () => {
    const { user } = await sellerWithPanel();
    prices = ["USD 9.90"];
    const outreach = await outreachOf(user);
    expect(prompts).toHaveLength(2);
    expect(outreach.flagged).toBe(true);
    expect(outreach.claims).toEqual([expect.objectContaining({ kind: "price", verified: false })]);
  });
});
