import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import {
  call,
  expectStatus,
  randomIp,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";
import { registerBusinessUser, setPlan } from "../support/plans";

// Plans, features and limits (docs/credits.md): the gate reads the plan in effect with the app
// clock, so moving the clock past a plan's end locks its features at once.
let now = new Date();
const clock = { now: () => now };
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-gates",
    search: { name: "fake-search", kind: "brave" },
    tasks: ["discovery_analysis", "marketing"],
  }));
  // A discovery analysis that finds nobody: runs end quickly and save nothing.
  llm.reply(() => JSON.stringify({ companies: [] }));
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close()]);
});
beforeEach(() => {
  now = new Date();
});

const DAY = 86_400_000;
const startAgent = (user: { accessToken: string }) =>
  call(app, "/agent/start", {
    token: user.accessToken,
    json: { product: "LED panel lights", market: "Germany", max_leads: 3 },
  });

/** What a refused request must leave untouched: balance, ledger, pipelines. */
async function footprint(userId: string) {
  const [row] = await queryRows<{ balance: number; ledger: number; pipelines: number }>(
    deps.db,
    sql`select (select balance from user_credits where user_id = ${userId}) as balance,
          (select count(*)::int from credit_ledger where user_id = ${userId}) as ledger,
          (select count(*)::int from agent_pipelines where user_id = ${userId}) as pipelines`,
  );
  return row!;
}

/** Access tokens expire by the app clock: after moving it, sign in again. */
async function signInAgain(user: Session): Promise<Session> {
  const login = await typed(app).post("/api/v1/auth/login", {
    json: { email: user.email, password: user.password },
    ip: randomIp(),
  });
  expectStatus(login, 200);
  return { ...user, accessToken: login.body.access_token };
}

async function guest(): Promise<Session> {
  const guest = await typed(app).post("/api/v1/auth/guest", { ip: randomIp() });
  expectStatus(guest, 201);
  return { accessToken: guest.body.access_token, userId: guest.body.user.id } as Session;
}

describe("feature gates on agent start", () => {
  const refused = async (user: Session, plan: string) => {
    const before = await footprint(user.userId);
    const { status, body } = await startAgent(user);
    expect(status).toBe(403);
    expect(body.detail).toBe(
      `The agent feature is not in your plan (${plan}). Plans that include it: Business.`,
    );
    expect(body).toMatchObject({ feature: "agent", plan, plans: ["business"] });
    // Nothing charged, nothing recorded.
    expect(await footprint(user.userId)).toEqual(before);
  };

  it("a free user gets 403 naming the feature and the plans that have it; nothing charged", async () => {
    const user = await registerUser(app);
    await setPlan(deps, user.userId, "free", null);
    await refused(user, "free");
  });

  it("a guest is on free", async () => {
    const user = await guest();
    await refused(user, "free");
  });

  it("a pro trial has no agent", async () => {
    const user = await registerUser(app);
    await refused(user, "pro");
  });

  it("a trial past its end (not yet downgraded by the task) counts as free", async () => {
    const user = await registerUser(app);
    await queryRows(
      deps.db,
      sql`update orgs set plan_expires_at = ${new Date(Date.now() - 60_000).toISOString()}
          where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    await refused(user, "free");
  });

  it("a business user passes the gate: charged once and the run is queued", async () => {
    const user = await registerBusinessUser(app, deps);
    const before = await footprint(user.userId);
    const { status, body } = await startAgent(user);
    expect(status).toBe(202);
    expect(body.status).toBe("queued");
    const after = await footprint(user.userId);
    expect(after.pipelines).toBe(before.pipelines + 1);
    expect(after.balance).toBeLessThan(before.balance);
    await pendingAgentRuns();
  });

  it("the plan's end flips the gate at once, by the app clock", async () => {
    const user = await registerUser(app);
    await setPlan(deps, user.userId, "business", new Date(now.getTime() + DAY));
    expect((await startAgent(user)).status).toBe(202);
    await pendingAgentRuns();
    now = new Date(now.getTime() + 2 * DAY);
    const { status, body } = await startAgent(await signInAgain(user));
    expect(status).toBe(403);
    expect(body.plan).toBe("free");
  });

  it("the trial's end locks pro features (marketing, discovery) with the same clock", async () => {
    let user = await registerUser(app);
    const marketing = (u: Session) =>
      call(app, "/api/v1/marketing/generate", {
        token: u.accessToken,
        json: { kind: "product_description", language: "en" },
      });
    expect((await marketing(user)).status).not.toBe(403);
    now = new Date(now.getTime() + 8 * DAY);
    user = await signInAgain(user);
    const locked = await marketing(user);
    expect(locked.status).toBe(403);
    expect(locked.body.detail).toBe(
      "The marketing feature is not in your plan (free). Plans that include it: Pro, Business.",
    );
    const discovery = await call(app, "/api/v1/discovery/search", {
      token: user.accessToken,
      json: { product: "LED", market: "Germany" },
    });
    expect(discovery.status).toBe(403);
    expect(discovery.body).toMatchObject({ feature: "discovery", plans: ["pro", "business"] });
  });

  it("this month's agent runs used up: 403 naming the limit, before any charge", async () => {
    const user = await registerBusinessUser(app, deps);
    await queryRows(
      deps.db,
      sql`insert into agent_pipelines (user_id, status, product, market, created_at)
          select ${user.userId}, 'succeeded', 'LED', 'Germany', now()
          from generate_series(1, 100)`,
    );
    const before = await footprint(user.userId);
    const { status, body } = await startAgent(user);
    expect(status).toBe(403);
    expect(body).toMatchObject({ limit: "agent_runs_per_month", max: 100, plans: [] });
    expect(body.detail).toMatch(/100 agent runs a month/);
    expect(await footprint(user.userId)).toEqual(before);
  });

  it("the OpenAPI document declares the 403", async () => {
    const { body } = await call(app, "/api/v1/openapi.json");
    expect(body.paths["/agent/start"].post.responses["403"]).toBeDefined();
    expect(body.paths["/api/v1/ai/chat"].post.responses["403"].description).toMatch(/ai_assistant/);
  });
});

describe("the customers limit", () => {
  const FREE_MAX = 1000;
  const fill = (userId: string, n: number) =>
    queryRows(
      deps.db,
      sql`insert into customers (user_id, company)
          select ${userId}, 'Filler ' || g from generate_series(1, ${n}::int) g`,
    );
  const count = async (userId: string) =>
    (
      await queryRows<{ n: number }>(
        deps.db,
        sql`select count(*)::int as n from customers where user_id = ${userId}`,
      )
    )[0]!.n;
  const create = (user: Session, company: string) =>
    typed(app).post("/api/v1/customers", { token: user.accessToken, json: { company } });
  const importCsv = (user: Session, csv: string, dryRun = false) => {
    const form = new FormData();
    form.append("file", new File([csv], "customers.csv", { type: "text/csv" }));
    return call(app, `/api/v1/customers/import${dryRun ? "?dry_run=true" : ""}`, {
      method: "POST",
      token: user.accessToken,
      body: form,
    });
  };

  async function freeUser() {
    const user = await registerUser(app);
    await setPlan(deps, user.userId, "free", null);
    return user;
  }

  it("a free user at the limit gets 403 on create, naming the limit and the plans above", async () => {
    const user = await freeUser();
    await fill(user.userId, FREE_MAX - 1);
    expect((await create(user, "The last one")).status).toBe(201);
    const { status, body } = await create(user, "One too many");
    expect(status).toBe(403);
    expect(body).toEqual({
      detail:
        "Your plan keeps at most 1000 customers and that limit is reached. " +
        "Plans that allow more: Pro, Business.",
      code: "plan_limit_reached",
      limit: "customers",
      max: 1000,
      plans: ["pro", "business"],
    });
    expect(await count(user.userId)).toBe(FREE_MAX);
  });

  it("an import past the limit is refused whole: 403, nothing imported", async () => {
    const user = await freeUser();
    await fill(user.userId, FREE_MAX - 2);
    const csv = "company,email\nAcme,a@acme.example\nBeta,b@beta.example\nGamma,c@gamma.example\n";
    const dry = await importCsv(user, csv, true);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ created: 0, would_create: 3 });
    const { status, body } = await importCsv(user, csv);
    expect(status).toBe(403);
    expect(body.limit).toBe("customers");
    expect(body.detail).toMatch(/at most 1000 customers.*nothing was imported/);
    expect(await count(user.userId)).toBe(FREE_MAX - 2);
    // Two rows fit.
    const fits = await importCsv(user, "company\nAcme\nBeta\n");
    expect(fits.status).toBe(200);
    expect(await count(user.userId)).toBe(FREE_MAX);
  });

  it("concurrent creates at the boundary never pass the limit", async () => {
    const user = await freeUser();
    await fill(user.userId, FREE_MAX - 3);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(user, `Racer ${i}`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 403)).toHaveLength(9);
    expect(await count(user.userId)).toBe(FREE_MAX);
    if (onPostgres) expect(results.every((r) => r.status !== 500)).toBe(true);
  });

  it("the count follows deletes and rows moved between accounts: a deleted customer frees its slot", async () => {
    const user = await freeUser();
    await fill(user.userId, FREE_MAX);
    expect((await create(user, "One too many")).status).toBe(403);
    const [victim] = await queryRows<{ id: string }>(
      deps.db,
      sql`select id from customers where user_id = ${user.userId} limit 1`,
    );
    const deleted = await typed(app).delete("/api/v1/customers/{id}", {
      token: user.accessToken,
      params: { id: victim!.id },
    });
    expectStatus(deleted, 204);
    expect((await create(user, "Fits again")).status).toBe(201);
    expect((await create(user, "Full again")).status).toBe(403);
    // Moving rows to another organisation moves their count with them (the quota is the
    // organisation's since ADR 0101).
    const other = await freeUser();
    await deps.db.execute(
      sql`update customers set user_id = ${other.userId},
            org_id = (select org_id from org_members where user_id = ${other.userId})
          where id in (select id from customers where user_id = ${user.userId} limit 10)`,
    );
    const usage = await queryRows<{ user_id: string; customers: number }>(
      deps.db,
      sql`select m.user_id, u.customers from org_usage u join org_members m on m.org_id = u.org_id
          where m.user_id in (${user.userId}, ${other.userId})
          order by u.customers desc`,
    );
    expect(usage).toEqual([
      { user_id: user.userId, customers: FREE_MAX - 10 },
      { user_id: other.userId, customers: 10 },
    ]);
    expect((await create(user, "Room after the move")).status).toBe(201);
  });

  it("the pro trial allows 20000; business has no customers limit", async () => {
    const trial = await registerUser(app);
    await fill(trial.userId, FREE_MAX);
    expect((await create(trial, "Beyond free")).status).toBe(201);
    const business = await registerBusinessUser(app, deps);
    await fill(business.userId, FREE_MAX + 5);
    expect((await create(business, "Many")).status).toBe(201);
  });
});

describe("GET /api/v1/auth/me and the balance", () => {
  const me = async (user: { accessToken: string }) => {
    const { status, body } = await call(app, "/api/v1/auth/me", { token: user.accessToken });
    expect(status).toBe(200);
    return body;
  };

  it("a pro trial: plan, features, limits with usage, email_verified", async () => {
    const user = await registerUser(app);
    for (const company of ["A", "B"]) {
      await typed(app).post("/api/v1/customers", { token: user.accessToken, json: { company } });
    }
    const body = await me(user);
    expect(body.plan).toBe("pro");
    expect(body.email_verified).toBe(false);
    expect(body.features).toEqual(expect.arrayContaining(["marketing", "discovery"]));
    expect(body.features).not.toContain("agent");
    expect(body.limits).toEqual({
      customers: { max: 20000, used: 2 },
      agent_runs_per_month: { max: 0, used: 0 },
      seats: { max: 5, used: 1 },
    });
  });

  it("after the trial's end /me and the balance show free at once", async () => {
    const registered = await registerUser(app);
    now = new Date(now.getTime() + 8 * DAY);
    const user = await signInAgain(registered);
    const body = await me(user);
    expect(body.plan).toBe("free");
    expect(body.features).toEqual(["translate", "customers", "products", "quotations"]);
    expect(body.limits.customers).toEqual({ max: 1000, used: 0 });
    const balance = await typed(app).get("/api/v1/credits/balance", { token: user.accessToken });
    expectStatus(balance, 200);
    expect(balance.body).toMatchObject({
      plan: "free",
      features: ["translate", "customers", "products", "quotations"],
    });
  });

  it("a business user: unlimited customers (null), agent runs counted this month", async () => {
    const user = await registerBusinessUser(app, deps);
    expect((await startAgent(user)).status).toBe(202);
    await pendingAgentRuns();
    const body = await me(user);
    expect(body.plan).toBe("business");
    expect(body.features).toContain("agent");
    expect(body.limits).toEqual({
      customers: { max: null, used: 0 },
      agent_runs_per_month: { max: 100, used: 1 },
      seats: { max: 50, used: 1 },
    });
  });

  it("a guest sees the free plan's features and limits", async () => {
    const user = await guest();
    const body = await me(user);
    expect(body).toMatchObject({ is_guest: true, plan: "free" });
    expect(body.features).toContain("translate");
    expect(body.limits.customers.max).toBe(1000);
  });
});
