import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import { adjustCredits, chargeCredits } from "../../src/modules/credits/service";
import { HOLD_STALE_MS } from "../../src/modules/inflight/heartbeat";
import { recoverInstanceWork } from "../../src/modules/inflight/recovery";
import { pendingJobs } from "../../src/modules/jobs/background";
import { createNodeMetrics } from "../../src/runtime/node/metrics";
import { buy, packageByCredits } from "../api/payments-helpers";
import { type FakeDeepl, startFakeDeepl } from "../fakes/deepl";
import type { FakeOpenAi } from "../fakes/openai";
import { type FakeGateway, startFakeGateway } from "../fakes/payment-gateway";
import { type FakeQstash, startFakeQstash } from "../fakes/qstash";
import type { FakeSearch } from "../fakes/search";
import { addAiProvider, useFakeAgentProviders } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

/**
 * What /metrics could not see before (issue #25 item 5, ADR 0119): refunds made in SQL (the
 * stale-hold sweep, restart recovery, an agent run's partial refund), discovery jobs waiting,
 * and payment and machine-translation provider calls by outcome. Each series is read from the
 * Node registry after the action, through the app, on the suite's database.
 */

let now = new Date();
const clock = { now: () => now };
const metrics = createNodeMetrics();
const ctx = await createTestContext({ runtime: { clock, metrics } });
const { app, deps } = ctx;
metrics.watch({ database: ctx.database });

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The registry's text, one sample a line (the spawned-server suite parses it strictly). */
async function scrape(): Promise<Sample[]> {
  const text = await metrics.registry.metrics();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
async function total(name: string, labels: Record<string, string> = {}): Promise<number> {
  return (await scrape())
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

const balanceOf = async (user: Session) =>
  (await call(app, "/api/v1/credits/balance", { token: user.accessToken })).body.balance as number;

let llm: FakeOpenAi;
let search: FakeSearch;
let deepl: FakeDeepl;
let gateway: FakeGateway;
let qstash: FakeQstash;

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-metrics-events",
    search: { name: "fake-brave-metrics", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
  [deepl, gateway, qstash] = await Promise.all([
    startFakeDeepl(),
    startFakeGateway({
      merchantId: "m_metrics",
      secret: "test_signing_secret_metrics_0123456789",
    }),
    startFakeQstash(),
  ]);
  // Machine translation is tried first whenever an MT provider is enabled.
  await addAiProvider(deps, {
    name: "fake-deepl",
    kind: "mt",
    baseUrl: deepl.url,
    apiKey: deepl.apiKey,
  });
});
afterAll(async () => {
  await pendingAgentRuns();
  await pendingJobs();
  await Promise.all([llm.close(), search.close(), deepl.close(), gateway.close(), qstash.close()]);
});

/** An instance that hands its jobs and agent runs to (fake) QStash: they stay queued. */
async function queuingApp() {
  const instance = await ctx.makeInstance(
    {},
    {
      PUBLIC_BASE_URL: "https://api.example.test",
      QSTASH_TOKEN: qstash.token,
      QSTASH_URL: qstash.url,
      QSTASH_CURRENT_SIGNING_KEY: "sig_current_0123456789abcdefghijklmnop",
    },
  );
  return instance.app;
}

describe("refunds made in SQL", () => {
  it("counts a restart's refund of its instance's holds as restart_recovery", async () => {
    const user = await registerUser(app);
    const before = await balanceOf(user);
    // An instance charged with a hold and stopped before the work answered.
    const previous = await ctx.makeInstance({}, { INSTANCE_ID: "metrics-restart" });
    const charge = await chargeCredits(previous.deps, {
      userId: user.userId,
      operation: "translate",
      hold: true,
    });
    expect(charge.cost).toBeGreaterThan(0);
    previous.deps.work.stop();
    const refunds = await total("credits_refunds_total", { operation: "restart_recovery" });

    // Its next life starts.
    const next = await ctx.makeInstance({}, { INSTANCE_ID: "metrics-restart" });
    expect((await recoverInstanceWork(next.deps)).refunded).toBe(1);
    expect(await balanceOf(user)).toBe(before);
    expect(await total("credits_refunds_total", { operation: "restart_recovery" })).toBe(
      refunds + 1,
    );
    next.deps.work.stop();
  });

  it("counts the stale-hold sweep's refunds as stale_hold", async () => {
    const user = await registerUser(app);
    const before = await balanceOf(user);
    const dead = await ctx.makeInstance({}, { INSTANCE_ID: "metrics-stale" });
    await chargeCredits(dead.deps, { userId: user.userId, operation: "translate", hold: true });
    dead.deps.work.stop();
    const refunds = await total("credits_refunds_total", { operation: "stale_hold" });

    // Not yet stale: nothing refunded, nothing counted.
    await runScheduledTasks(deps, ["refundStaleHolds"]);
    expect(await total("credits_refunds_total", { operation: "stale_hold" })).toBe(refunds);
    now = new Date(now.getTime() + HOLD_STALE_MS + 1000);
    const [swept] = await runScheduledTasks(deps, ["refundStaleHolds"]);
    expect(swept?.ok).toBe(true);
    const holds = (swept!.result as { refunded: number }).refunded;
    expect(holds).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(user)).toBe(before);
    expect(await total("credits_refunds_total", { operation: "stale_hold" })).toBe(refunds + holds);
  });

  it("counts an agent run's partial refund, in credits, as agent_run", async () => {
    search.results(() => [
      { title: "Alpha Lighting GmbH", url: "https://alpha.example/", snippet: "Alpha" },
    ]);
    llm.reply((messages) => {
      const system = messages.find((m) => m.role === "system")?.content ?? "";
      if (system.includes("find companies")) {
        return JSON.stringify({
          companies: [
            {
              name: "Alpha Lighting GmbH",
              website: "https://alpha.example/",
              country: "Germany",
              summary: "Buys LED panels",
              fit_score: 90,
              contact: { email: "sales@alpha.example", phone: null },
              sources: ["https://alpha.example/"],
            },
          ],
        });
      }
      return JSON.stringify({ subject: "Panels", body: "Hello." });
    });
    const admin = await registerAdmin(ctx);
    const user = await registerBusinessUser(app, deps);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: 50,
      actorId: admin.userId,
      reason: "t",
    });
    const refunds = await total("credits_refunds_total", { operation: "agent_run" });
    const credits = await total("credits_refunded_total", { operation: "agent_run" });

    // Charged 6; search and analysis cost 5, then the budget stops the run: 1 credit back.
    const started = await call(app, "/agent/start", {
      token: user.accessToken,
      json: { product: "LED panel lights", market: "Germany", max_credits: 6 },
    });
    expect(started.status).toBe(202);
    await pendingAgentRuns();
    const run = await call(app, `/api/v1/agent/${started.body.id}`, { token: user.accessToken });
    expect(run.body).toMatchObject({ status: "budget_exhausted", credits_charged: 5 });
    expect(await total("credits_refunds_total", { operation: "agent_run" })).toBe(refunds + 1);
    expect(await total("credits_refunded_total", { operation: "agent_run" })).toBe(credits + 1);
  });

  it("counts a cancelled run's refund, in credits, as agent_run", async () => {
    const admin = await registerAdmin(ctx);
    const user = await registerBusinessUser(app, deps);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: 50,
      actorId: admin.userId,
      reason: "t",
    });
    // Queued through QStash: no stage starts before the cancel.
    const queuing = await queuingApp();
    const started = await call(queuing, "/agent/start", {
      token: user.accessToken,
      json: { product: "LED panel lights", market: "Germany" },
    });
    expect(started.status).toBe(202);
    expect(await total("agent_runs_open", { status: "queued" })).toBeGreaterThanOrEqual(1);
    const refunds = await total("credits_refunds_total", { operation: "agent_run" });
    const credits = await total("credits_refunded_total", { operation: "agent_run" });
    const cancelled = await call(app, `/agent/${started.body.id}/cancel`, {
      method: "POST",
      token: user.accessToken,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.credits_refunded).toBe(started.body.credits_charged);
    expect(await total("credits_refunds_total", { operation: "agent_run" })).toBe(refunds + 1);
    expect(await total("credits_refunded_total", { operation: "agent_run" })).toBe(
      credits + cancelled.body.credits_refunded,
    );
  });
});

describe("a discovery job's refund", () => {
  it("counts a failed job's refund, in credits, as discovery", async () => {
    const user = await registerUser(app);
    const refunds = await total("credits_refunds_total", { operation: "discovery" });
    const credits = await total("credits_refunded_total", { operation: "discovery" });
    search.fail("http-500");
    llm.fail("http-500");
    try {
      const started = await call(app, "/api/v1/discovery/jobs", {
        token: user.accessToken,
        json: { product: "LED panel lights", market: "Germany" },
      });
      expect(started.status).toBe(202);
      expect(started.body.credits_charged).toBeGreaterThan(0);
      await pendingJobs();
      const job = await call(app, `/api/v1/discovery/jobs/${started.body.id}`, {
        token: user.accessToken,
      });
      expect(job.body.status).toBe("failed");
      expect(await total("credits_refunds_total", { operation: "discovery" })).toBe(refunds + 1);
      expect(await total("credits_refunded_total", { operation: "discovery" })).toBe(
        credits + started.body.credits_charged,
      );
    } finally {
      search.fail(null);
      llm.fail(null);
    }
  });
});

describe("discovery jobs waiting", () => {
  it("are a gauge read when scraped, beside the agent runs", async () => {
    // Dispatched through QStash: the job stays queued until its delivery comes.
    const queuing = await queuingApp();
    const before = await total("discovery_jobs_open", { status: "queued" });
    const user = await registerUser(app);
    const started = await call(queuing, "/api/v1/discovery/jobs", {
      token: user.accessToken,
      json: { product: "LED panel lights", market: "Germany" },
    });
    expect(started.status).toBe(202);
    expect(await total("discovery_jobs_open", { status: "queued" })).toBe(before + 1);
    expect((await scrape()).some((s) => s.name === "agent_runs_open")).toBe(true);
  });
});

describe("provider calls beyond the AI call log", () => {
  it("counts payment gateway requests by task and outcome", async () => {
    const { app: paying } = await ctx.makeInstance(
      {},
      {
        PAYMENT_GATEWAY_URL: gateway.url,
        PAYMENT_MERCHANT_ID: gateway.merchantId,
        PAYMENT_SIGNING_SECRET: gateway.secret,
        PUBLIC_BASE_URL: "http://127.0.0.1:9",
      },
    );
    const pkg = await packageByCredits(paying, 100);
    const user = await registerUser(paying);
    const calls = (outcome: string) =>
      total("provider_calls_total", { provider: "payment_gateway", task: "create_order", outcome });
    const [ok, failed] = [await calls("ok"), await calls("error")];

    const created = await buy(paying, user, "/api/v1/credits/purchase", {
      package_id: pkg.id,
      pay_type: "wxpay",
    });
    expect(created.status).toBe(201);
    expect(gateway.getOrder(created.body.order_no)).toBeTruthy();
    expect(await calls("ok")).toBe(ok + 1);

    gateway.fail("http-502");
    try {
      const refused = await buy(paying, user, "/api/v1/credits/purchase", {
        package_id: pkg.id,
        pay_type: "wxpay",
      });
      expect(refused.status).toBe(503);
    } finally {
      gateway.fail(null);
    }
    expect(await calls("error")).toBe(failed + 1);
    expect(await calls("ok")).toBe(ok + 1);
  });

  it("counts machine translations by provider and outcome", async () => {
    const user = await registerUser(app);
    const calls = (outcome: string) =>
      total("provider_calls_total", { provider: "fake-deepl", task: "translate", outcome });
    const [ok, failed] = [await calls("ok"), await calls("error")];
    deepl.fail(null);
    deepl.translate((text, target) => `[${target}] ${text}`);
    const done = await call(app, "/api/v1/translate", {
      token: user.accessToken,
      json: { text: "Bonjour", target_lang: "zh" },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ provider: "fake-deepl", tier: "mt" });
    expect(await calls("ok")).toBe(ok + 1);

    deepl.fail("http-500");
    try {
      // No LLM is routed for translation here: the MT failure is the answer.
      const failing = await call(app, "/api/v1/translate", {
        token: user.accessToken,
        json: { text: "Bonjour encore", target_lang: "zh" },
      });
      expect(failing.status).toBeGreaterThanOrEqual(500);
    } finally {
      deepl.fail(null);
    }
    expect(await calls("error")).toBe(failed + 1);
  });
});
