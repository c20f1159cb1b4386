import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { App } from "../../src/app";
import { queryRows } from "../../src/db/client";
import { adjustCredits, chargeCredits, getBalance } from "../../src/modules/credits/service";
import { runDiscoveryJob, sweepDiscoveryJobs } from "../../src/modules/discovery/jobs";
import { DiscoveryJobSchema, DiscoveryResultSchema } from "../../src/modules/discovery/schemas";
import { DISCOVERY_TIMEOUT_MS } from "../../src/modules/discovery/service";
import { pendingJobs } from "../../src/modules/jobs/background";
import type { FakeOpenAi } from "../fakes/openai";
import { type FakeQstash, signQstash, startFakeQstash } from "../fakes/qstash";
import type { FakeSearch } from "../fakes/search";
import { addSearchProvider, useFakeAgentProviders } from "../support/ai";
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
import { setPlan } from "../support/plans";

let now = new Date();
const clock = { now: () => now };
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;

const ACME = {
  name: "Acme Imports Ltd",
  website: "https://acme-imports.example/",
  country: "Germany",
  summary: "Imports LED lighting in bulk",
  fit_score: 88,
  contact: { email: "sales@acme-imports.example", phone: null },
  sources: ["https://acme-imports.example/"],
};

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-jobs",
    search: { name: "fake-brave", kind: "brave" },
    tasks: ["discovery_analysis"],
  }));
});
afterAll(async () => {
  await pendingJobs();
  await Promise.all([llm.close(), search.close()]);
});
beforeEach(async () => {
  await pendingJobs();
  now = new Date();
  search.fail(null);
  search.results(() => [
    {
      title: "Acme Imports Ltd - importer",
      url: "https://acme-imports.example/",
      snippet: "Acme Imports buys LED panels in bulk. sales@acme-imports.example",
    },
  ]);
  llm.reply(() => JSON.stringify({ companies: [ACME] }));
});

const body = { product: "LED panel lights", market: "Germany" };
const startJob = (user: Session, json: unknown = body, headers: Record<string, string> = {}) =>
  call(app, "/api/v1/discovery/jobs", { token: user.accessToken, json, headers });
const readJob = (user: Session, id: string, target: App = app) =>
  call(target, `/api/v1/discovery/jobs/${id}`, { token: user.accessToken });
type JobBody = NonNullable<ApiOptions<Operation<"/api/v1/discovery/jobs", "post">>["json"]>;
/** A job that must be accepted (202), typed by the OpenAPI document (ADR 0095). */
const started202 = async (
  user: Session,
  json: JobBody = body,
  headers: Record<string, string> = {},
) => {
  const answer = await typed(app).post("/api/v1/discovery/jobs", {
    token: user.accessToken,
    json,
    headers,
  });
  expectStatus(answer, 202);
  return answer;
};
/** A job read that must succeed (200), typed. */
const jobOf = async (user: Session, id: string, target: App = app) => {
  const answer = await typed(target).get("/api/v1/discovery/jobs/{id}", {
    token: user.accessToken,
    params: { id },
  });
  expectStatus(answer, 200);
  return answer;
};
const balance = async (user: Session) => (await getBalance(deps, user.userId)).balance as number;
const refunds = async (userId: string) =>
  (
    await queryRows<{ n: number; credits: number }>(
      deps.db,
      sql`select count(*)::int as n, coalesce(sum(delta), 0)::int as credits from credit_ledger
          where user_id = ${userId} and kind = 'refund'`,
    )
  )[0]!;
const jobRows = (userId: string) =>
  queryRows<{ id: string; status: string; attempts: number }>(
    deps.db,
    sql`select id, status, attempts from discovery_jobs where user_id = ${userId}`,
  );
const QUERIES = [
  "LED panel lights importers Germany",
  "LED panel lights distributors wholesalers Germany",
  "LED panel lights buyers companies Germany",
];

describe("POST /api/v1/discovery/jobs and the background search", () => {
  it("charges discovery, answers 202 with Location, and serves progress then the result", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const started = await started202(user, { ...body, max_companies: 5 });
    expect(started.status).toBe(202);
    // A billable answer says what it charged (issue #24).
    expect(started.body).toEqual({
      id: expect.any(String),
      status: "queued",
      credits_charged: 5,
      balance: before - 5,
    });
    expect(started.res.headers.get("Location")).toBe(`/api/v1/discovery/jobs/${started.body.id}`);
    expect(await balance(user)).toBe(before - 5);

    await pendingJobs();
    const { status, body: job } = await jobOf(user, started.body.id);
    expect(status).toBe(200);
    expect(DiscoveryJobSchema.safeParse(job).success).toBe(true);
    expect(job).toMatchObject({
      status: "succeeded",
      product: "LED panel lights",
      market: "Germany",
      max_companies: 5,
      error: null,
      attempts: 1,
    });
    expect(job.finished_at).toEqual(expect.any(String));
    expect(job.progress).toEqual({
      queries: QUERIES.map((query) => ({
        query,
        status: "succeeded",
        provider: "fake-brave",
        results: 1,
      })),
      analysis: { status: "succeeded", provider: "llm", companies: 1 },
    });
    // The search's own answer shape, with what the charge cost and left.
    expect(DiscoveryResultSchema.safeParse(job.result).success).toBe(true);
    expect(job.result).toMatchObject({
      product: "LED panel lights",
      queries: QUERIES,
      search_providers: ["fake-brave"],
      analysis_provider: "llm",
      credits_charged: 5,
      balance: before - 5,
    });
    expect(job.result!.companies.map((c) => c.name)).toEqual([ACME.name]);
    // Saved as a discovery record of the user.
    const record = await typed(app).get("/api/v1/discovery/records/{id}", {
      token: user.accessToken,
      params: { id: job.record_id! },
    });
    expectStatus(record, 200);
    expect(record.body.companies).toEqual(job.result!.companies);
    // Billed once (the usage log names the job), nothing refunded.
    const usage = await queryRows<{ metadata: { job_id: string; credits: number } }>(
      deps.db,
      sql`select metadata from usage_logs where user_id = ${user.userId} and event = 'discovery'`,
    );
    expect(usage.map((u) => u.metadata)).toEqual([
      expect.objectContaining({ job_id: job.id, credits: 5 }),
    ]);
    expect(await refunds(user.userId)).toMatchObject({ n: 0 });
    expect(await balance(user)).toBe(before - 5);
    // No credit hold left behind: the job took the charge over.
    const holds = await queryRows(
      deps.db,
      sql`select 1 from credit_holds where user_id = ${user.userId}`,
    );
    expect(holds).toHaveLength(0);
  });

  it("shows each query's progress while it runs: a query waits on a slow provider", async () => {
    // The first provider hangs until its 1 s timeout; the second then serves every query.
    await queryRows(deps.db, sql`update search_providers set name = 'a-slow'`);
    await addSearchProvider(deps, {
      name: "b-fast",
      kind: "searxng",
      baseUrl: search.url,
      apiKey: null,
      timeoutMs: 5000,
    });
    await queryRows(
      deps.db,
      sql`update search_providers set timeout_ms = 1000 where name = 'a-slow'`,
    );
    search.fail("hang", "brave");
    try {
      const user = await registerUser(app);
      const { body: started } = await started202(user);
      let running: { status: string; progress: { queries: { status: string }[] } } | undefined;
      for (let i = 0; i < 40 && !running; i++) {
        const { body: job } = await readJob(user, started.id);
        if (
          job.status === "running" &&
          job.progress.queries.some((q: { status: string }) => q.status === "running")
        ) {
          running = job;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(running?.progress.queries.map((q) => q.status)).toEqual([
        "running",
        "running",
        "running",
      ]);
      await pendingJobs();
      const { body: job } = await jobOf(user, started.id);
      expect(job.status).toBe("succeeded");
      expect(job.progress.queries.map((q) => q.provider)).toEqual(["b-fast", "b-fast", "b-fast"]);
    } finally {
      search.fail(null);
      await queryRows(deps.db, sql`delete from search_providers where name = 'b-fast'`);
      await queryRows(
        deps.db,
        sql`update search_providers set name = 'fake-brave', timeout_ms = 15000`,
      );
    }
  });

  it("a search that finds nothing skips the analysis and succeeds with no companies", async () => {
    search.results(() => []);
    const user = await registerUser(app);
    const { body: started } = await started202(user);
    await pendingJobs();
    const { body: job } = await jobOf(user, started.id);
    expect(job.status).toBe("succeeded");
    expect(job.progress.analysis).toEqual({ status: "skipped", provider: null, companies: null });
    expect(job.result!.companies).toEqual([]);
  });

  it("search down: the job fails with a user-safe error and refunds once", async () => {
    search.fail("http-500");
    const user = await registerUser(app);
    const before = await balance(user);
    const { body: started } = await started202(user);
    expect(await balance(user)).toBe(before - 5);
    await pendingJobs();
    const { body: job } = await jobOf(user, started.id);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/credits were returned/);
    expect(JSON.stringify(job)).not.toContain("secret upstream text");
    expect(job.result).toBeNull();
    expect(job.record_id).toBeNull();
    expect(job.progress.queries.map((q: { status: string }) => q.status)).toEqual([
      "failed",
      "failed",
      "failed",
    ]);
    expect(job.progress.analysis.status).toBe("pending");
    expect(await balance(user)).toBe(before);
    expect(await refunds(user.userId)).toEqual({ n: 1, credits: 5 });
    // Another delivery finds nothing to claim.
    expect(await runDiscoveryJob(deps, started.id)).toBe("skipped");
    expect(await refunds(user.userId)).toEqual({ n: 1, credits: 5 });
  });

  it("a job that hits the 120 s bound fails saying it timed out, and refunds", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    // The 120 s bound, shortened for the test (every other timer keeps its length); the
    // provider hangs within its own 15 s timeout.
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    const spy = vi
      .spyOn(AbortSignal, "timeout")
      .mockImplementation((ms) => timeout(ms === DISCOVERY_TIMEOUT_MS ? 400 : ms));
    search.fail("hang");
    try {
      const { body: started } = await started202(user);
      await pendingJobs();
      const { body: job } = await jobOf(user, started.id);
      expect(job.status).toBe("failed");
      expect(job.error).toBe(
        "The discovery search took longer than 120 s and was stopped; your credits were returned",
      );
    } finally {
      spy.mockRestore();
      search.fail(null);
    }
    expect(await balance(user)).toBe(before);
  });

  it("the analysis failing fails the job and refunds", async () => {
    llm.reply(() => "not json at all");
    const user = await registerUser(app);
    const before = await balance(user);
    const { body: started } = await started202(user);
    await pendingJobs();
    const { body: job } = await jobOf(user, started.id);
    expect(job.status).toBe("failed");
    expect(job.progress.analysis.status).toBe("failed");
    expect(job.progress.queries.every((q: { status: string }) => q.status === "succeeded")).toBe(
      true,
    );
    expect(await balance(user)).toBe(before);
  });

  it("402 when the balance is short: nothing written", async () => {
    const user = await registerUser(app);
    const have = await balance(user);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -(have - 3),
      actorId: user.userId,
      reason: "t",
    });
    const { status, body: error } = await startJob(user);
    expect(status).toBe(402);
    expect(error).toMatchObject({ required: 5, balance: 3 });
    expect(await jobRows(user.userId)).toHaveLength(0);
    expect(await balance(user)).toBe(3);
  });

  it("403 without the discovery feature: nothing charged or written", async () => {
    const user = await registerUser(app);
    await setPlan(deps, user.userId, "free");
    const before = await balance(user);
    const { status } = await startJob(user);
    expect(status).toBe(403);
    expect(await jobRows(user.userId)).toHaveLength(0);
    expect(await balance(user)).toBe(before);
  });

  it("503 without a search provider: nothing charged or written", async () => {
    await queryRows(deps.db, sql`update search_providers set enabled = false`);
    try {
      const user = await registerUser(app);
      const before = await balance(user);
      const { status } = await startJob(user);
      expect(status).toBe(503);
      expect(await jobRows(user.userId)).toHaveLength(0);
      expect(await balance(user)).toBe(before);
    } finally {
      await queryRows(deps.db, sql`update search_providers set enabled = true`);
    }
  });

  it("a cookie session needs the CSRF token; bad input is 422 and charges nothing", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const cookie = await call(app, "/api/v1/discovery/jobs", {
      json: body,
      cookies: { access_token: user.accessToken },
    });
    expect(cookie.status).toBe(403);
    for (const json of [
      { product: "", market: "Germany" },
      { product: "LED", market: "" },
      { product: "LED", market: "Germany", max_companies: 51 },
      { product: "LED", market: "Germany", extra: true },
    ]) {
      expect((await startJob(user, json)).status).toBe(422);
    }
    expect(await jobRows(user.userId)).toHaveLength(0);
    expect(await balance(user)).toBe(before);
    const withToken = await call(app, "/api/v1/discovery/jobs", {
      json: body,
      cookies: { access_token: user.accessToken, csrf_token: user.csrfToken },
      csrf: user.csrfToken,
    });
    expect(withToken.status).toBe(202);
    expect((await call(app, "/api/v1/discovery/jobs", { json: body })).status).toBe(401);
  });

  it("an Idempotency-Key retry replays the first answer and charges once", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const first = await started202(user, body, { "Idempotency-Key": "discovery-job-1" });
    const second = await started202(user, body, { "Idempotency-Key": "discovery-job-1" });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    await pendingJobs();
    expect(await jobRows(user.userId)).toHaveLength(1);
    expect(await balance(user)).toBe(before - 5);
  });
});

describe("GET /api/v1/discovery/jobs/{id}", () => {
  it("is the owner's only: another user's job is 404, a non-UUID 422, no token 401", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const { body: started } = await started202(user);
    await pendingJobs();
    expect((await jobOf(user, started.id)).status).toBe(200);
    const theirs = await readJob(other, started.id);
    expect(theirs.status).toBe(404);
    expect(theirs.body.detail).toBe("Discovery job not found");
    expect((await readJob(user, "0190d4c8-7b5e-7000-8000-000000000000")).status).toBe(404);
    expect((await readJob(user, "not-a-uuid")).status).toBe(422);
    expect((await call(app, `/api/v1/discovery/jobs/${started.id}`)).status).toBe(401);
  });
});

describe("leases, attempts and the sweep", () => {
  async function insertJob(
    user: Session,
    fields: { status: string; attempts: number; leaseUntil: Date | null; createdAt?: Date },
  ) {
    const charge = await chargeCredits(deps, { userId: user.userId, operation: "discovery" });
    const [row] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into discovery_jobs (user_id, status, product, market, consumption_id,
            credits_charged, balance_after, progress, attempts, lease_until, created_at)
          values (${user.userId}, ${fields.status}, 'LED panel lights', 'Germany',
            ${charge.consumptionId}, ${charge.cost}, ${charge.balance}, '{}'::jsonb,
            ${fields.attempts}, ${fields.leaseUntil?.toISOString() ?? null},
            ${(fields.createdAt ?? now).toISOString()})
          returning id`,
    );
    return row!.id;
  }
  const statusOf = async (id: string) =>
    (
      await queryRows<{ status: string; attempts: number; error: string | null }>(
        deps.db,
        sql`select status, attempts, error from discovery_jobs where id = ${id}`,
      )
    )[0]!;

  it("a live lease is not claimed; once it expires the job runs again", async () => {
    const user = await registerUser(app);
    const id = await insertJob(user, {
      status: "running",
      attempts: 1,
      leaseUntil: new Date(now.getTime() + 60_000),
    });
    expect(await runDiscoveryJob(deps, id)).toBe("skipped");
    now = new Date(now.getTime() + 5 * 60_000);
    expect(await runDiscoveryJob(deps, id)).toBe("succeeded");
    expect(await statusOf(id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("the claim after 3 attempts fails the job and refunds it once", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const id = await insertJob(user, {
      status: "running",
      attempts: 3,
      leaseUntil: new Date(now.getTime() - 1000),
    });
    expect(await balance(user)).toBe(before - 5);
    const searches = search.requests.length;
    expect(await runDiscoveryJob(deps, id)).toBe("failed");
    expect(await statusOf(id)).toMatchObject({ status: "failed", attempts: 4 });
    expect((await statusOf(id)).error).toMatch(/after 3 attempts/);
    expect(await balance(user)).toBe(before);
    expect(await runDiscoveryJob(deps, id)).toBe("skipped");
    expect(await refunds(user.userId)).toEqual({ n: 1, credits: 5 });
    expect(search.requests.length).toBe(searches);
  });

  it("the sweep runs expired leases and stale queued jobs, and nothing else", async () => {
    const user = await registerUser(app);
    const staleQueued = await insertJob(user, {
      status: "queued",
      attempts: 0,
      leaseUntil: null,
      createdAt: new Date(now.getTime() - 3 * 60_000),
    });
    const expired = await insertJob(user, {
      status: "running",
      attempts: 1,
      leaseUntil: new Date(now.getTime() - 1000),
      createdAt: new Date(now.getTime() - 10 * 60_000),
    });
    const freshQueued = await insertJob(user, { status: "queued", attempts: 0, leaseUntil: null });
    const leased = await insertJob(user, {
      status: "running",
      attempts: 1,
      leaseUntil: new Date(now.getTime() + 60_000),
      createdAt: new Date(now.getTime() - 20 * 60_000),
    });
    expect(await sweepDiscoveryJobs(deps)).toEqual({ found: 2, published: 0, ran: 2 });
    expect((await statusOf(staleQueued)).status).toBe("succeeded");
    expect(await statusOf(expired)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect((await statusOf(freshQueued)).status).toBe("queued");
    expect((await statusOf(leased)).status).toBe("running");
    expect(await sweepDiscoveryJobs(deps)).toEqual({ found: 0, published: 0, ran: 0 });
  });

  it("a worker that lost the job writes nothing and refunds nothing", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const id = await insertJob(user, { status: "queued", attempts: 0, leaseUntil: null });
    // While the first worker searches, the job is claimed by another (its lease taken over).
    llm.reply(() => {
      void queryRows(
        deps.db,
        sql`update discovery_jobs set attempts = attempts + 1 where id = ${id}`,
      );
      return JSON.stringify({ companies: [ACME] });
    });
    expect(await runDiscoveryJob(deps, id)).toBe("lease_lost");
    const [row] = await queryRows<{ status: string; record_id: string | null }>(
      deps.db,
      sql`select status, record_id from discovery_jobs where id = ${id}`,
    );
    expect(row).toEqual({ status: "running", record_id: null });
    const records = await queryRows(
      deps.db,
      sql`select 1 from discovery_records where user_id = ${user.userId}`,
    );
    expect(records).toHaveLength(0);
    expect(await balance(user)).toBe(before - 5);
  });
});

describe("dispatch through QStash", () => {
  const PUBLIC_BASE_URL = "https://api.example.test";
  const KEY = "sig_current_0123456789abcdefghijklmnop";
  let qstash: FakeQstash;
  let qstashApp: App;
  beforeAll(async () => {
    qstash = await startFakeQstash();
    ({ app: qstashApp } = await ctx.makeInstance(
      {},
      {
        PUBLIC_BASE_URL,
        QSTASH_TOKEN: qstash.token,
        QSTASH_URL: qstash.url,
        QSTASH_CURRENT_SIGNING_KEY: KEY,
      },
    ));
  });
  afterAll(async () => {
    await qstash.close();
  });

  it("publishes discovery-run {job_id}; the signed delivery runs it, a replay runs nothing", async () => {
    const user = await registerUser(app);
    const { status, body: started } = await call(qstashApp, "/api/v1/discovery/jobs", {
      token: user.accessToken,
      json: body,
    });
    expect(status).toBe(202);
    const message = qstash.messages.at(-1)!;
    expect(message.destination).toBe(`${PUBLIC_BASE_URL}/api/v1/jobs/discovery-run`);
    expect(JSON.parse(message.body)).toEqual({ job_id: started.id });
    expect((await readJob(user, started.id)).body.status).toBe("queued");

    const deliver = (payload: string) =>
      call(qstashApp, "/api/v1/jobs/discovery-run", {
        method: "POST",
        body: payload,
        headers: {
          "Content-Type": "application/json",
          "Upstash-Signature": signQstash(KEY, { url: message.destination, body: payload }),
        },
      });
    const delivered = await deliver(message.body);
    expect(delivered.status).toBe(200);
    const { body: job } = await readJob(user, started.id);
    expect(job).toMatchObject({ status: "succeeded", attempts: 1 });
    expect((await deliver(message.body)).status).toBe(200);
    expect((await readJob(user, started.id)).body.attempts).toBe(1);
    expect((await deliver(JSON.stringify({ job_id: "nope" }))).status).toBe(422);
  });
});
