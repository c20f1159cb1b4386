import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../src/db/client";
import { adjustCredits } from "../../src/modules/credits/service";
import { DISCOVERY_TIMEOUT_MS, runDiscovery } from "../../src/modules/discovery/service";
import { searchBrave } from "../../src/providers/search/brave";
import { searchSearxng } from "../../src/providers/search/searxng";
import { SearchCallError } from "../../src/providers/search/types";
import type { ChatMessage } from "../fakes/openai";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { type FakeSearch, type FakeSearchResult, startFakeSearch } from "../fakes/search";
import {
  addAiProvider,
  addSearchProvider as addStoredSearchProvider,
  clearAiProviders,
} from "../support/ai";
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

const ctx = await createTestContext();
const { app, deps } = ctx;
let search: FakeSearch;
let llm: FakeOpenAi;

// An app whose clock the tests set: records land on chosen instants.
let current = new Date();
const clockApp = await ctx.makeApp({ clock: { now: () => current } });

const addSearchProvider = (input: {
  name: string;
  kind: "brave" | "searxng";
  apiKey?: string | null;
  enabled?: boolean;
  timeoutMs?: number;
}) =>
  addStoredSearchProvider(deps, {
    ...input,
    baseUrl: search.url,
    apiKey: input.apiKey === undefined ? search.apiKey : input.apiKey,
  });

async function setProvidersOrder(order: string[]) {
  await queryRows(
    deps.db,
    sql`insert into system_config (key, value) values ('search.providers_order',
          ${JSON.stringify(order)}::jsonb)
        on conflict (key) do update set value = excluded.value`,
  );
}

/** The search results the analysis prompt listed, by URL. */
const promptUrls = (messages: ChatMessage[]) =>
  [...(messages.at(-1)?.content ?? "").matchAll(/^URL: (\S+)$/gm)].map((m) => m[1]!);

const acme = {
  name: "Acme Imports Ltd",
  website: "acme-imports.example",
  country: "Germany",
  summary: "Imports LED lighting in bulk",
  fit_score: 88,
  contact: { email: "sales@acme-imports.example", phone: "+49 30 1234567" },
  sources: ["https://acme-imports.example/"],
};

const replyWith = (companies: unknown[]) =>
  llm.reply(() => `\`\`\`json\n${JSON.stringify({ companies })}\n\`\`\``);

beforeAll(async () => {
  [search, llm] = await Promise.all([startFakeSearch(), startFakeOpenAi("sk-analyst")]);
});
afterAll(async () => {
  await Promise.all([search.close(), llm.close()]);
});
beforeEach(async () => {
  current = new Date();
  await queryRows(deps.db, sql`delete from search_providers`);
  await setProvidersOrder([]);
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "analyst",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["gpt-analyst"],
  });
  search.fail(null);
  search.results((q) => [
    {
      title: "Acme Imports Ltd - importer and distributor",
      url: "https://acme-imports.example/",
      snippet: "Acme Imports buys in bulk. Contact sales@acme-imports.example.",
    },
    { title: `About ${q}`, url: `https://directory.example/${encodeURIComponent(q)}`, snippet: q },
  ]);
  search.requests.length = 0;
  llm.fail(null);
  llm.requests.length = 0;
  replyWith([acme]);
});

const balanceOf = async (user: Session) => {
  const answer = await typed(app).get("/api/v1/credits/balance", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer.body.balance;
};

async function countRows(
  table: "discovery_records" | "usage_logs",
  userId: string,
  event?: string,
) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${userId}
        ${event ? sql`and event = ${event}` : sql``}`,
  );
  return row!.n;
}

const discover = (user: Session, json: unknown, headers: Record<string, string> = {}) =>
  call(app, "/api/v1/discovery/search", { token: user.accessToken, json, headers });
type SearchBody = NonNullable<ApiOptions<Operation<"/api/v1/discovery/search", "post">>["json"]>;
/** The success path, typed by the OpenAPI document (ADR 0095); `discover` stays for errors. */
const discovered = (user: Session, json: SearchBody, headers: Record<string, string> = {}) =>
  typed(app).post("/api/v1/discovery/search", { token: user.accessToken, json, headers });

const QUERIES = [
  "LED lamps importers Germany",
  "LED lamps distributors wholesalers Germany",
  "LED lamps buyers companies Germany",
];

describe("search clients", () => {
  const target = () => ({
    provider: "p",
    baseUrl: search.url,
    apiKey: search.apiKey,
    timeoutMs: 5000,
  });

  it("read both protocols into {title, url, snippet}, dropping non-http URLs", async () => {
    search.results(() => [
      { title: "  A  co ", url: "https://a.example/x", snippet: "first\n line" },
      { title: "bad", url: "javascript:alert(1)", snippet: "" },
    ]);
    const expected = [{ title: "A co", url: "https://a.example/x", snippet: "first line" }];
    expect(await searchBrave(target(), "q1", { count: 5 })).toEqual(expected);
    expect(await searchSearxng(target(), "q2")).toEqual(expected);
    expect(search.requests).toMatchObject([
      { kind: "brave", q: "q1", count: "5", token: search.apiKey, accept: "application/json" },
      { kind: "searxng", q: "q2", format: "json", authorization: `Bearer ${search.apiKey}` },
    ]);
  });

  it("turn 401, 429, 500, non-JSON and a timeout into SearchCallError without provider text", async () => {
    const cases: [() => void, string, number | undefined][] = [
      [() => search.fail("http-429"), "rate limited", 429],
      [() => search.fail("http-500"), "http status", 500],
      [() => search.fail("non-json"), "bad response", 200],
      [() => search.fail("hang"), "timeout", undefined],
    ];
    for (const [arrange, reason, status] of cases) {
      arrange();
      for (const run of [searchBrave, searchSearxng]) {
        const error = await run({ ...target(), timeoutMs: 1000 }, "q").catch((e) => e);
        expect(error).toBeInstanceOf(SearchCallError);
        expect(error).toMatchObject({ reason, status });
        expect(String(error.message)).not.toContain("secret upstream text");
      }
    }
    search.fail(null);
    await expect(searchBrave({ ...target(), apiKey: "wrong-key" }, "q")).rejects.toMatchObject({
      reason: "rejected key",
      status: 401,
    });
    await expect(searchSearxng({ ...target(), apiKey: "wrong-key" }, "q")).rejects.toMatchObject({
      reason: "rejected key",
      status: 403,
    });
  });
});

describe("POST /api/v1/discovery/search", () => {
  it("runs exactly 3 queries on a brave provider, analyses them and charges without saving", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    const user = await registerUser(app);
    const answer = await discovered(user, { product: " LED  lamps ", market: "Germany" });
    expectStatus(answer, 200);
    const { body } = answer;
    expect(body).toEqual({
      product: "LED lamps",
      market: "Germany",
      queries: QUERIES,
      companies: [
        {
          name: "Acme Imports Ltd",
          website: "https://acme-imports.example/",
          country: "Germany",
          summary: "Imports LED lighting in bulk",
          fit_score: 88,
          // The phone is in no search result: dropped.
          contact: { email: "sales@acme-imports.example", phone: null },
          // Issue #24: the model gave no role, so `unknown`; each source names its field.
          role: "unknown",
          role_reason: "The search results do not say",
          sources: [
            { field: "name", url: "https://acme-imports.example/" },
            { field: "email", url: "https://acme-imports.example/" },
          ],
          existing_customer_id: null,
        },
      ],
      search_providers: ["brave-main"],
      analysis_provider: "analyst",
      credits_charged: 5,
      balance: 25,
    });
    expect(search.requests.map((r) => r.q).sort()).toEqual([...QUERIES].sort());
    expect(search.requests.every((r) => r.kind === "brave" && r.token === search.apiKey)).toBe(
      true,
    );
    expect(llm.requests).toHaveLength(1);
    expect(await balanceOf(user)).toBe(25);
    expect(await countRows("discovery_records", user.userId)).toBe(0);
    expect(await countRows("usage_logs", user.userId, "discovery")).toBe(1);
  });

  it("serves from a searxng provider, with its key as a Bearer token or without one", async () => {
    await addSearchProvider({ name: "searx", kind: "searxng" });
    const user = await registerUser(app);
    const first = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(first, 200);
    expect(first.body.search_providers).toEqual(["searx"]);
    expect(first.body.companies.map((c) => c.name)).toEqual(["Acme Imports Ltd"]);
    expect(search.requests).toHaveLength(3);
    expect(
      search.requests.every(
        (r) =>
          r.kind === "searxng" &&
          r.format === "json" &&
          r.authorization === `Bearer ${search.apiKey}`,
      ),
    ).toBe(true);

    await queryRows(deps.db, sql`update search_providers set api_key_ciphertext = null`);
    search.requests.length = 0;
    const second = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(second, 200);
    expect(search.requests).toHaveLength(3);
    expect(search.requests.every((r) => r.authorization === undefined)).toBe(true);
  });

  it("falls back from a failing provider to the next, per query", async () => {
    await addSearchProvider({ name: "a-brave", kind: "brave" });
    await addSearchProvider({ name: "b-searx", kind: "searxng" });
    search.fail("http-500", "brave");
    const user = await registerUser(app);
    const answer = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(answer, 200);
    const { body } = answer;
    expect(body.search_providers).toEqual(["b-searx"]);
    expect(body.companies).toHaveLength(1);
    expect(search.requests.filter((r) => r.kind === "brave")).toHaveLength(3);
    expect(search.requests.filter((r) => r.kind === "searxng")).toHaveLength(3);
    expect(await balanceOf(user)).toBe(25);
  });

  it("gives up on a hanging provider after its own timeout_ms and uses the next", async () => {
    await addSearchProvider({ name: "a-slow", kind: "brave", timeoutMs: 1000 });
    await addSearchProvider({ name: "b-searx", kind: "searxng" });
    search.fail("hang", "brave");
    const user = await registerUser(app);
    const answer = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(answer, 200);
    const { body } = answer;
    expect(body.search_providers).toEqual(["b-searx"]);
    expect(search.requests.filter((r) => r.kind === "searxng")).toHaveLength(3);
  });

  it("tries providers in search.providers_order (names or kinds), then by name", async () => {
    await addSearchProvider({ name: "a-brave", kind: "brave" });
    await addSearchProvider({ name: "z-searx", kind: "searxng" });
    const user = await registerUser(app);

    await setProvidersOrder(["z-searx"]);
    const byName = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(byName, 200);
    expect(byName.body.search_providers).toEqual(["z-searx"]);
    expect(search.requests.map((r) => r.kind)).toEqual(["searxng", "searxng", "searxng"]);

    search.requests.length = 0;
    await setProvidersOrder(["missing-provider", "searxng"]);
    const byKind = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(byKind, 200);
    expect(byKind.body.search_providers).toEqual(["z-searx"]);

    search.requests.length = 0;
    await setProvidersOrder([]);
    const byDefault = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(byDefault, 200);
    expect(byDefault.body.search_providers).toEqual(["a-brave"]);
    expect(search.requests.map((r) => r.kind)).toEqual(["brave", "brave", "brave"]);
  });

  it("skips disabled providers", async () => {
    await addSearchProvider({ name: "a-brave", kind: "brave", enabled: false });
    await addSearchProvider({ name: "b-searx", kind: "searxng" });
    const user = await registerUser(app);
    const answer = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(answer, 200);
    const { body } = answer;
    expect(body.search_providers).toEqual(["b-searx"]);
    expect(search.requests.some((r) => r.kind === "brave")).toBe(false);
  });

  it("merges results by URL, drops invented sources and contacts, de-duplicates and caps", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    search.results((q): FakeSearchResult[] => [
      {
        title: "Acme Imports Ltd",
        url: "https://acme-imports.example/",
        snippet: "Acme Imports, call +49 30 1234567",
      },
      {
        title: "Acme (www)",
        url: "https://www.acme-imports.example/about#team",
        snippet: "Acme about page",
      },
      { title: "Beta Trade", url: "https://beta.example/", snippet: "Beta wholesale lighting" },
      { title: "Gamma", url: "https://gamma.example/", snippet: `Gamma buyers for ${q}` },
    ]);
    replyWith([
      { ...acme, contact: { email: "ceo@acme-imports.example", phone: "+49 (30) 123-4567" } },
      {
        name: "ACME Imports",
        website: "https://www.acme-imports.example",
        country: "DE",
        summary: "Same company, other page",
        fit_score: 70,
        sources: ["https://www.acme-imports.example/about"],
      },
      {
        name: "Beta Trade",
        website: null,
        summary: "Wholesaler",
        fit_score: 150,
        sources: ["https://beta.example"],
      },
      {
        name: "Gamma",
        website: "gamma.example",
        summary: "Buyer",
        fit_score: 40,
        sources: ["https://gamma.example/"],
      },
      {
        name: "Invented Co",
        website: "invented.example",
        fit_score: 99,
        sources: ["https://invented.example/"],
      },
      { name: "No Sources Co", fit_score: 95, sources: [] },
      { website: "nameless.example", fit_score: 90, sources: ["https://gamma.example/"] },
    ]);
    const user = await registerUser(app);
    const answer = await discovered(user, {
      product: "LED lamps",
      market: "Germany",
      max_companies: 2,
    });
    expectStatus(answer, 200);
    const { body } = answer;
    // The same 4 URLs came back for each of the 3 queries: the model saw each once.
    const seen = promptUrls(llm.requests[0]!.messages);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    expect(body.companies).toEqual([
      {
        name: "Beta Trade",
        website: null,
        country: null,
        summary: "Wholesaler",
        fit_score: 100,
        contact: { email: null, phone: null },
        role: "unknown",
        role_reason: "The search results do not say",
        sources: [{ field: "name", url: "https://beta.example/" }],
        existing_customer_id: null,
      },
      {
        name: "Acme Imports Ltd",
        website: "https://acme-imports.example/",
        country: "Germany",
        summary: "Imports LED lighting in bulk",
        fit_score: 88,
        // The email is not in the results; the phone is (other punctuation).
        contact: { email: null, phone: "+49 (30) 123-4567" },
        role: "unknown",
        role_reason: "The search results do not say",
        sources: [
          { field: "name", url: "https://acme-imports.example/" },
          { field: "phone", url: "https://acme-imports.example/" },
          { field: "name", url: "https://www.acme-imports.example/about#team" },
        ],
        existing_customer_id: null,
      },
    ]);
  });

  it("returns no companies, not charged (issue #24), when the searches find nothing", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    search.results(() => []);
    const user = await registerUser(app);
    const answer = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(answer, 200);
    const { body } = answer;
    expect(body).toMatchObject({
      companies: [],
      analysis_provider: "",
      credits_charged: 0,
      balance: 30,
    });
    expect(llm.requests).toHaveLength(0);
  });

  it("answers 503 and charges nothing when no search provider is configured or answers", async () => {
    const user = await registerUser(app);
    const none = await discover(user, { product: "LED lamps", market: "Germany" });
    expect(none.status).toBe(503);
    expect(none.body.detail).toBe("No search or AI provider is configured; nothing was charged");
    // Refused before charging: not even a charge-and-refund pair in the ledger.
    const [ledger] = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from credit_ledger
          where user_id = ${user.userId} and kind in ('consumption', 'refund')`,
    );
    expect(ledger!.n).toBe(0);

    await addSearchProvider({ name: "a-brave", kind: "brave" });
    await addSearchProvider({ name: "b-searx", kind: "searxng" });
    for (const mode of ["http-500", "http-429", "non-json"] as const) {
      search.fail(mode);
      const down = await discover(user, { product: "LED lamps", market: "Germany" });
      expect(down.status).toBe(503);
      expect(down.body.detail).toMatch(/No search provider is available/);
      expect(JSON.stringify(down.body)).not.toContain("secret upstream text");
    }
    expect(llm.requests).toHaveLength(0);
    expect(await balanceOf(user)).toBe(30);
    expect(await countRows("usage_logs", user.userId, "discovery")).toBe(0);
  });

  it("says a search that hit its 120 s limit timed out, not that no provider is available", async () => {
    const user = await registerUser(app);
    // The 120 s bound, shortened for the test: every other timer keeps its length.
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    const spy = vi
      .spyOn(AbortSignal, "timeout")
      .mockImplementation((ms) => timeout(ms === DISCOVERY_TIMEOUT_MS ? 400 : ms));
    try {
      // While searching: the provider hangs (its own 5 s timeout is longer than the bound).
      await addSearchProvider({ name: "slow-brave", kind: "brave", timeoutMs: 5000 });
      search.fail("hang");
      const searching = await discover(user, { product: "LED lamps", market: "Germany" });
      expect(searching.status).toBe(503);
      expect(searching.body).toMatchObject({
        code: "timed_out",
        detail:
          "The discovery search took longer than 120 s and was stopped; your credits were returned",
      });
      expect(searching.body.detail).not.toMatch(/No search provider/);

      // While analysing: the searches answered, the model hangs.
      search.fail(null);
      llm.fail("hang");
      const analysing = await discover(user, { product: "LED lamps", market: "Germany" });
      expect(analysing.status).toBe(503);
      expect(analysing.body.code).toBe("timed_out");
      expect(await balanceOf(user)).toBe(30);
      expect(await countRows("usage_logs", user.userId, "discovery")).toBe(0);
    } finally {
      spy.mockRestore();
      search.fail(null);
      llm.fail(null);
    }
  });

  it("answers 503 and refunds when the analysis fails or is unusable", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    const user = await registerUser(app);
    llm.fail("http-500");
    const down = await discover(user, { product: "LED lamps", market: "Germany" });
    expect(down.status).toBe(503);
    expect(await balanceOf(user)).toBe(30);

    llm.fail(null);
    llm.reply(() => "I could not find anything useful, sorry.");
    const prose = await discover(user, { product: "LED lamps", market: "Germany" });
    expect(prose.status).toBe(503);
    expect(await balanceOf(user)).toBe(30);
    expect(await countRows("usage_logs", user.userId, "discovery")).toBe(0);
  });

  it("answers 402 with nothing written and nothing searched when the balance is short", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    const user = await registerUser(app);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -27,
      actorId: user.userId,
      reason: "test",
    });
    const { status, body } = await discover(user, { product: "LED lamps", market: "Germany" });
    expect(status).toBe(402);
    expect(body).toMatchObject({ required: 5, balance: 3 });
    expect(search.requests).toHaveLength(0);
    expect(await balanceOf(user)).toBe(3);
    expect(await countRows("usage_logs", user.userId, "discovery")).toBe(0);
  });

  it("charges an Idempotency-Key retry once and replays the first answer", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    const user = await registerUser(app);
    const headers = { "Idempotency-Key": `disc-${user.userId}` };
    const json = { product: "LED lamps", market: "Germany" };
    const first = await discovered(user, json, headers);
    const second = await discovered(user, json, headers);
    expectStatus(first, 200);
    expectStatus(second, 200);
    expect(second.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(search.requests).toHaveLength(3);
    expect(await balanceOf(user)).toBe(25);
  });

  it("answers 422 for bad input, 401 without a token, 403 for a cookie session without CSRF", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    const user = await registerUser(app);
    const bad: unknown[] = [
      {},
      { product: "", market: "Germany" },
      { product: "   ", market: "Germany" },
      { product: "x".repeat(201), market: "Germany" },
      { product: "LED", market: "y".repeat(101) },
      { product: "LED" },
      { product: "LED", market: "Germany", max_companies: 51 },
      { product: "LED", market: "Germany", extra: true },
    ];
    for (const json of bad) {
      const res = await discover(user, json);
      expect(res.status, JSON.stringify(json)).toBe(422);
    }
    expect(
      (await call(app, "/api/v1/discovery/search", { json: { product: "a", market: "b" } })).status,
    ).toBe(401);
    const cookie = await call(app, "/api/v1/discovery/search", {
      json: { product: "LED lamps", market: "Germany" },
      cookies: { access_token: user.accessToken },
    });
    expect(cookie.status).toBe(403);
    expect(search.requests).toHaveLength(0);
    expect(await balanceOf(user)).toBe(30);
  });
});

describe("runDiscovery (the agent's entry point)", () => {
  it("returns the contract shape and honours maxCompanies (capped at 50)", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    search.results(() =>
      Array.from({ length: 10 }, (_, i) => ({
        title: `Co ${i}`,
        url: `https://co${i}.example/`,
        snippet: `Company ${i}`,
      })),
    );
    replyWith(
      Array.from({ length: 10 }, (_, i) => ({
        name: `Co ${i}`,
        website: `co${i}.example`,
        summary: "Buyer",
        fit_score: i * 10,
        sources: [`https://co${i}.example/`],
      })),
    );
    const three = await runDiscovery(deps, {
      product: "LED lamps",
      market: "Germany",
      maxCompanies: 3,
    });
    expect(three.queries).toEqual(QUERIES);
    expect(three.companies.map((c) => c.fit_score)).toEqual([90, 80, 70]);
    const many = await runDiscovery(deps, {
      product: "LED lamps",
      market: "Germany",
      maxCompanies: 500,
    });
    expect(many.companies).toHaveLength(10);
  });
});

describe("discovery records", () => {
  const record = (overrides: Record<string, unknown> = {}) => ({
    product: "LED lamps",
    market: "Germany",
    companies: [
      {
        name: "Acme Imports Ltd",
        website: "https://acme-imports.example/",
        country: "Germany",
        summary: "Imports in bulk",
        fit_score: 88,
        contact: { email: "sales@acme-imports.example", phone: null },
        sources: ["https://acme-imports.example/"],
      },
    ],
    ...overrides,
  });
  const save = (user: Session, json: unknown, target = app) =>
    call(target, "/api/v1/discovery/records", { token: user.accessToken, json });
  type RecordBody = NonNullable<ApiOptions<Operation<"/api/v1/discovery/records", "post">>["json"]>;
  /** A save that must succeed, typed (ADR 0095); `save` stays for the 422s. */
  const saved = async (user: Session, json: RecordBody, target = app) => {
    const answer = await typed(target).post("/api/v1/discovery/records", {
      token: user.accessToken,
      json,
    });
    expectStatus(answer, 201);
    return answer;
  };
  const list = async (user: Session, query: { size?: number; page?: number; q?: string }) => {
    const answer = await typed(app).get("/api/v1/discovery/records", {
      token: user.accessToken,
      query,
    });
    expectStatus(answer, 200);
    return answer;
  };

  it("saves a search result as it came back from the search", async () => {
    await addSearchProvider({ name: "brave-main", kind: "brave" });
    const user = await registerUser(app);
    const found = await discovered(user, { product: "LED lamps", market: "Germany" });
    expectStatus(found, 200);
    const kept = await saved(user, {
      product: found.body.product,
      market: found.body.market,
      companies: found.body.companies,
    });
    expect(kept.body).toEqual({
      id: expect.any(String),
      product: "LED lamps",
      market: "Germany",
      companies: found.body.companies,
      created_at: expect.any(String),
      org_id: expect.any(String),
      user_id: user.userId,
      owner_name: null,
    });
    const got = await typed(app).get("/api/v1/discovery/records/{id}", {
      token: user.accessToken,
      params: { id: kept.body.id },
    });
    expectStatus(got, 200);
    expect(got.body).toEqual(kept.body);
  });

  it("lists newest first, pages, filters by q over product and market", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const base = Date.now() - 3_600_000;
    const ids: string[] = [];
    for (const [i, input] of [
      { product: "LED lamps", market: "Germany" },
      { product: "Solar panels", market: "Kenya" },
      { product: "Solar lights", market: "Brazil" },
    ].entries()) {
      current = new Date(base + i * 60_000);
      const res = await saved(user, record(input), clockApp);
      ids.push(res.body.id);
    }
    await saved(other, record({ product: "Solar other" }));

    const page1 = await list(user, { size: 2 });
    expect(page1.body).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(page1.body.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.items[0]).toMatchObject({
      product: "Solar lights",
      market: "Brazil",
      company_count: 1,
      created_at: new Date(base + 120_000).toISOString(),
    });
    const page2 = await list(user, { size: 2, page: 2 });
    expect(page2.body.items.map((i) => i.id)).toEqual([ids[0]]);

    const solar = await list(user, { q: "SOLAR" });
    expect(solar.body.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    const kenya = await list(user, { q: "keny" });
    expect(kenya.body.items.map((i) => i.id)).toEqual([ids[1]]);
    const wildcard = await list(user, { q: "%" });
    expect(wildcard.body.total).toBe(0);
    const badSize = await call(app, "/api/v1/discovery/records?size=0", {
      token: user.accessToken,
    });
    expect(badSize.status).toBe(422);
  });

  it("deletes by path and by ?id=, 404 for another user's record, 422 without an id", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const a = (await saved(user, record())).body.id;
    const b = (await saved(user, record())).body.id;
    const path = (id: string) => `/api/v1/discovery/records/${id}`;

    // Another user sees nothing and deletes nothing.
    expect((await call(app, path(a), { token: other.accessToken })).status).toBe(404);
    expect((await call(app, path(a), { token: other.accessToken, method: "DELETE" })).status).toBe(
      404,
    );
    expect(
      (
        await call(app, `/api/v1/discovery/records?id=${a}`, {
          token: other.accessToken,
          method: "DELETE",
        })
      ).status,
    ).toBe(404);
    expect((await list(other, {})).body.total).toBe(0);

    const noId = await call(app, "/api/v1/discovery/records", {
      token: user.accessToken,
      method: "DELETE",
    });
    expect(noId.status).toBe(422);
    const badId = await call(app, "/api/v1/discovery/records?id=nope", {
      token: user.accessToken,
      method: "DELETE",
    });
    expect(badId.status).toBe(422);
    expect((await call(app, path("nope"), { token: user.accessToken })).status).toBe(422);
    expect(await countRows("discovery_records", user.userId)).toBe(2);

    const byPath = await typed(app).delete("/api/v1/discovery/records/{id}", {
      token: user.accessToken,
      params: { id: a },
    });
    expectStatus(byPath, 204);
    const byQuery = await typed(app).delete("/api/v1/discovery/records", {
      token: user.accessToken,
      query: { id: b },
    });
    expectStatus(byQuery, 204);
    expect(await countRows("discovery_records", user.userId)).toBe(0);
    expect((await call(app, path(a), { token: user.accessToken, method: "DELETE" })).status).toBe(
      404,
    );
    expect((await call(app, path(b), { token: user.accessToken })).status).toBe(404);
  });

  it("answers 422 for invalid records, writing nothing; 401 and 403 for the guards", async () => {
    const user = await registerUser(app);
    const company = record().companies[0]!;
    const bad: unknown[] = [
      record({ product: "" }),
      record({ market: "m".repeat(101) }),
      record({ companies: "none" }),
      record({ companies: [{ ...company, fit_score: 150 }] }),
      record({ companies: [{ ...company, website: "javascript:alert(1)" }] }),
      record({ companies: [{ ...company, sources: ["ftp://x.example/"] }] }),
      record({ companies: [{ ...company, contact: { email: "not-an-email", phone: null } }] }),
      record({ companies: [{ ...company, extra: 1 }] }),
      record({ companies: Array.from({ length: 101 }, () => company) }),
      { ...record(), id: crypto.randomUUID() },
    ];
    for (const json of bad) {
      const res = await save(user, json);
      expect(res.status).toBe(422);
    }
    expect(await countRows("discovery_records", user.userId)).toBe(0);
    expectStatus(await saved(user, record({ companies: [] })), 201);

    expect((await call(app, "/api/v1/discovery/records")).status).toBe(401);
    expect((await call(app, "/api/v1/discovery/records", { json: record() })).status).toBe(401);
    const cookie = await call(app, "/api/v1/discovery/records", {
      json: record(),
      cookies: { access_token: user.accessToken },
    });
    expect(cookie.status).toBe(403);
    expect(await countRows("discovery_records", user.userId)).toBe(1);
  });
});
