import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { getBalance } from "../../src/modules/credits/service";
import { DiscoveryResultSchema } from "../../src/modules/discovery/schemas";
import { pendingJobs } from "../../src/modules/jobs/background";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch, FakeSearchResult } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { type Company, createCompany } from "../support/orgs";

// Issue #24 item 5 (and discovery's share of item 1): each company says its role and why, the
// search result each field came from, and which customer of the caller's it already is; a
// search that finds no company costs nothing.

const ctx = await createTestContext();
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;

const RESULTS: FakeSearchResult[] = [
  {
    title: "Acme Imports Ltd - importer",
    url: "https://acme-imports.example/",
    snippet: "Acme Imports buys LED panels in bulk. sales@acme-imports.example",
  },
  {
    title: "Beta Trading GmbH",
    url: "https://directory.example/beta",
    snippet: "Beta Trading GmbH, Hamburg: wholesaler of office lighting. +49 40 555 1234",
  },
  {
    title: "Gamma Lights - LED panel maker",
    url: "https://gamma.example/",
    snippet: "Gamma makes LED panel lights and exports them.",
  },
];

const acme = {
  name: "Acme Imports Ltd",
  website: "www.acme-imports.example",
  country: "Germany",
  summary: "Imports LED lighting in bulk",
  fit_score: 88,
  contact: { email: "sales@acme-imports.example", phone: null },
  role: "distributor",
  role_reason: "Imports and wholesales LED panels",
  sources: [
    { field: "name", url: "https://acme-imports.example/" },
    { field: "website", url: "https://acme-imports.example" },
    { field: "email", url: "https://acme-imports.example/" },
  ],
};
const beta = {
  name: "Beta Trading Co., Ltd.",
  website: null,
  country: "Germany",
  summary: "Wholesaler of office lighting",
  fit_score: 70,
  contact: { email: null, phone: "+49 40 555 1234" },
  role: "buyer",
  role_reason: "Buys office lighting for its projects",
  sources: [{ field: "name", url: "https://directory.example/beta" }],
};

const reply = (companies: unknown[]) => llm.reply(() => JSON.stringify({ companies }));

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-h5-seller",
    search: { name: "fake-brave-h5", kind: "brave" },
    tasks: ["discovery_analysis"],
  }));
});
afterAll(async () => {
  await pendingJobs();
  await Promise.all([llm.close(), search.close()]);
});
beforeEach(async () => {
  await pendingJobs();
  search.fail(null);
  search.results(() => RESULTS);
  llm.fail(null);
  llm.requests.length = 0;
  reply([acme, beta]);
});

const body = { product: "LED panel lights", market: "Germany" };
const discover = (user: Session, json: unknown = body) =>
  call(app, "/api/v1/discovery/search", { token: user.accessToken, json });
const balance = async (user: Session) => (await getBalance(deps, user.userId)).balance as number;

type Found = {
  name: string;
  role: string;
  role_reason: string;
  sources: { field: string; url: string }[];
  existing_customer_id: string | null;
  contact: { email: string | null; phone: string | null };
};
async function companiesFor(user: Session, json: unknown = body): Promise<Found[]> {
  const { status, body: answer } = await discover(user, json);
  expect(status, JSON.stringify(answer)).toBe(200);
  expect(DiscoveryResultSchema.safeParse(answer).success).toBe(true);
  return answer.companies as Found[];
}
const byName = (companies: Found[], name: string) => companies.find((c) => c.name === name);

/** A customer held by `holder` (null: in the holder's organisation's pool). */
async function customer(holder: Session, values: { company: string; email?: string }) {
  const [row] = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into customers (user_id, company, email)
        values (${holder.userId}, ${values.company}, ${values.email ?? null}) returning id`,
  );
  return row!.id;
}
async function poolCustomer(holder: Session, values: { company: string; email?: string }) {
  const id = await customer(holder, values);
  await queryRows(deps.db, sql`update customers set user_id = null where id = ${id}`);
  return id;
}

describe("discovery companies: existing customers", () => {
  it("matches one customer by email domain and another by name with its legal suffix", async () => {
    const user = await registerUser(app);
    const byDomain = await customer(user, {
      company: "Totally different name",
      email: "Jo@Mail.Acme-Imports.example",
    });
    const byLegalName = await customer(user, { company: "BETA TRADING GmbH" });
    await customer(user, { company: "Unrelated Lighting", email: "a@unrelated.example" });

    const companies = await companiesFor(user);
    expect(byName(companies, "Acme Imports Ltd")?.existing_customer_id).toBe(byDomain);
    expect(byName(companies, "Beta Trading Co., Ltd.")?.existing_customer_id).toBe(byLegalName);
  });

  it("never matches a free-mail domain, and leaves a company nobody has as null", async () => {
    const user = await registerUser(app);
    await customer(user, { company: "Someone", email: "someone@gmail.com" });
    reply([{ ...acme, website: null, contact: { email: "acme@gmail.com", phone: null } }]);
    search.results(() => [{ ...RESULTS[0]!, snippet: "Acme Imports: acme@gmail.com" }]);
    const [found] = await companiesFor(user);
    expect(found?.contact.email).toBe("acme@gmail.com");
    expect(found?.existing_customer_id).toBeNull();
  });

  it("never matches another organisation's customer", async () => {
    const company: Company = await createCompany(ctx);
    await customer(company.outsider, { company: "Beta Trading", email: "x@acme-imports.example" });
    for (const user of [company.owner, company.member]) {
      const companies = await companiesFor(user);
      expect(companies.map((c) => c.existing_customer_id)).toEqual([null, null]);
    }
    // The outsider, whose customer it is, gets it.
    const theirs = await companiesFor(company.outsider);
    expect(theirs.every((c) => c.existing_customer_id !== null)).toBe(true);
  });

  it("a member matches their own and the pool's customers, not a colleague's; a manager matches all", async () => {
    const company = await createCompany(ctx);
    const colleagues = await customer(company.colleague, {
      company: "Acme Imports GmbH",
      email: "buyer@acme-imports.example",
    });
    const pooled = await poolCustomer(company.owner, { company: "Beta Trading S.A." });

    const asMember = await companiesFor(company.member);
    expect(byName(asMember, "Acme Imports Ltd")?.existing_customer_id).toBeNull();
    expect(byName(asMember, "Beta Trading Co., Ltd.")?.existing_customer_id).toBe(pooled);

    const asColleague = await companiesFor(company.colleague);
    expect(byName(asColleague, "Acme Imports Ltd")?.existing_customer_id).toBe(colleagues);

    const asManager = await companiesFor(company.manager);
    expect(byName(asManager, "Acme Imports Ltd")?.existing_customer_id).toBe(colleagues);
    expect(byName(asManager, "Beta Trading Co., Ltd.")?.existing_customer_id).toBe(pooled);
  });

  it("matches in a background job too, and a saved record is matched again, not taken from the body", async () => {
    const user = await registerUser(app);
    const mine = await customer(user, { company: "Acme Imports", email: "a@acme-imports.example" });
    const started = await call(app, "/api/v1/discovery/jobs", {
      token: user.accessToken,
      json: body,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await pendingJobs();
    const job = await call(app, `/api/v1/discovery/jobs/${started.body.id}`, {
      token: user.accessToken,
    });
    expect(job.body.status).toBe("succeeded");
    const companies = job.body.result.companies as Found[];
    expect(byName(companies, "Acme Imports Ltd")?.existing_customer_id).toBe(mine);
    const record = await call(app, `/api/v1/discovery/records/${job.body.record_id}`, {
      token: user.accessToken,
    });
    expect(byName(record.body.companies, "Acme Imports Ltd")?.existing_customer_id).toBe(mine);

    // Another account saving a record that names this customer: not theirs, so null.
    const other = await registerUser(app);
    const saved = await call(app, "/api/v1/discovery/records", {
      token: other.accessToken,
      json: { ...body, companies },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.companies.map((c: Found) => c.existing_customer_id)).toEqual([null, null]);
  });
});

describe("discovery companies: roles and sources", () => {
  it("cites each field's search result and drops a URL that was not a result", async () => {
    const user = await registerUser(app);
    reply([
      {
        ...acme,
        sources: [
          { field: "name", url: "https://acme-imports.example/" },
          { field: "country", url: "https://invented.example/acme" },
          { field: "summary", url: "https://acme-imports.example/#about" },
          "https://made-up.example/",
        ],
      },
      { ...beta, sources: [{ field: "name", url: "https://invented.example/beta" }] },
    ]);
    const companies = await companiesFor(user);
    // Beta cited only an invented URL: dropped altogether.
    expect(companies.map((c) => c.name)).toEqual(["Acme Imports Ltd"]);
    const [found] = companies;
    expect(found!.sources).toEqual([
      { field: "name", url: "https://acme-imports.example/" },
      { field: "summary", url: "https://acme-imports.example/" },
      // The email is cited where the code found it, not where the model said.
      { field: "email", url: "https://acme-imports.example/" },
    ]);
    const urls = JSON.stringify(companies);
    expect(urls).not.toContain("invented.example");
    expect(urls).not.toContain("made-up.example");
  });

  it("keeps the five roles, makes any other word (or a role without a reason) unknown", async () => {
    const user = await registerUser(app);
    reply([
      { ...acme, role: "Distributor", role_reason: "Imports LED panels" },
      { ...beta, role: "partner", role_reason: "Works with lighting firms" },
      {
        name: "Gamma Lights",
        website: "gamma.example",
        summary: "Makes LED panels",
        fit_score: 20,
        role: "competitor",
        role_reason: "Makes and exports the same LED panels",
        sources: [{ field: "role", url: "https://gamma.example/" }],
      },
      {
        name: "Delta Buyer",
        summary: "?",
        fit_score: 10,
        role: "buyer",
        sources: ["https://gamma.example/"],
      },
    ]);
    const companies = await companiesFor(user);
    expect(companies.map((c) => [c.name, c.role])).toEqual([
      ["Acme Imports Ltd", "distributor"],
      ["Beta Trading Co., Ltd.", "unknown"],
      ["Gamma Lights", "competitor"],
      ["Delta Buyer", "unknown"],
    ]);
    expect(byName(companies, "Beta Trading Co., Ltd.")?.role_reason).toBe(
      "Works with lighting firms",
    );
    // Every kept company cites a result for its name (the first one it cited, if not stated).
    expect(byName(companies, "Gamma Lights")?.sources).toEqual([
      { field: "name", url: "https://gamma.example/" },
      { field: "role", url: "https://gamma.example/" },
    ]);
    expect(byName(companies, "Delta Buyer")?.role_reason).toBe("The search results do not say");
  });

  it("tells the analysis what the seller is and sells", async () => {
    const user = await registerUser(app);
    await queryRows(
      deps.db,
      sql`update users set company = 'Ningbo Bright Co' where id = ${user.userId}`,
    );
    await queryRows(
      deps.db,
      sql`insert into products (user_id, name, category) values
          (${user.userId}, 'Panel light 600x600 40W', 'Indoor lighting')`,
    );
    await companiesFor(user);
    const prompt = JSON.stringify(llm.requests.at(-1));
    expect(prompt).toContain("Ningbo Bright Co");
    expect(prompt).toContain("Indoor lighting");
    expect(prompt).toContain("Panel light 600x600 40W");
    expect(prompt).toContain("competitor");
  });
});

describe("discovery: no charge for an empty result", () => {
  const ledger = async (user: Session) =>
    queryRows<{ kind: string; delta: number }>(
      deps.db,
      sql`select kind, delta from credit_ledger
          where user_id = ${user.userId} and operation = 'discovery' order by created_at, id`,
    );

  it("refunds a search whose analysis found no company: credits_charged 0, balance unchanged", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    reply([]);
    const { status, body: answer } = await discover(user);
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(answer).toMatchObject({ companies: [], credits_charged: 0, balance: before });
    expect(await balance(user)).toBe(before);
    expect(await ledger(user)).toEqual([
      { kind: "consumption", delta: -5 },
      { kind: "refund", delta: 5 },
    ]);
  });

  it("refunds a search whose queries returned nothing (no analysis run)", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    search.results(() => []);
    const { status, body: answer } = await discover(user);
    expect(status).toBe(200);
    expect(answer).toMatchObject({ companies: [], credits_charged: 0, balance: before });
    expect(llm.requests).toHaveLength(0);
    expect(await balance(user)).toBe(before);
  });

  it("charges a search that found a company", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const { body: answer } = await discover(user);
    expect(answer.credits_charged).toBe(5);
    expect(await balance(user)).toBe(before - 5);
  });

  it("refunds a background job that found no company in the statement that finishes it", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    reply([{ ...acme, sources: ["https://invented.example/"] }]);
    const started = await call(app, "/api/v1/discovery/jobs", {
      token: user.accessToken,
      json: body,
    });
    expect(started.status).toBe(202);
    expect(await balance(user)).toBe(before - 5);
    await pendingJobs();
    const job = await call(app, `/api/v1/discovery/jobs/${started.body.id}`, {
      token: user.accessToken,
    });
    expect(job.body).toMatchObject({
      status: "succeeded",
      result: { companies: [], credits_charged: 0, balance: before },
    });
    expect(await balance(user)).toBe(before);
    expect((await ledger(user)).map((r) => r.kind)).toEqual(["consumption", "refund"]);
  });

  it("takes quote_id in both bodies and refuses one that is not a uuid", async () => {
    const user = await registerUser(app);
    for (const path of ["/api/v1/discovery/search", "/api/v1/discovery/jobs"]) {
      const { status, body: answer } = await call(app, path, {
        token: user.accessToken,
        json: { ...body, quote_id: "not-a-quote" },
      });
      expect(status, JSON.stringify(answer)).toBe(422);
      expect(JSON.stringify(answer)).toContain("quote_id");
    }
  });
});

describe("discovery: charged as quoted", () => {
  const quote = async (user: Session) => {
    const quoted = await call(app, "/api/v1/credits/quote", {
      token: user.accessToken,
      json: { operation: "discovery", input: body },
    });
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(201);
    return quoted.body as { quote_id: string; credits: number };
  };

  it("a search and a job charge their quote once; a second use is 409 quote_used", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const first = await quote(user);
    const searched = await discover(user, { ...body, quote_id: first.quote_id });
    expect(searched.status, JSON.stringify(searched.body)).toBe(200);
    expect(searched.body.credits_charged).toBe(first.credits);
    expect(await balance(user)).toBe(before - first.credits);
    const again = await discover(user, { ...body, quote_id: first.quote_id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("quote_used");

    const second = await quote(user);
    const started = await call(app, "/api/v1/discovery/jobs", {
      token: user.accessToken,
      json: { ...body, quote_id: second.quote_id },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(await balance(user)).toBe(before - first.credits - second.credits);
    await pendingJobs();
    const job = await call(app, `/api/v1/discovery/jobs/${started.body.id}`, {
      token: user.accessToken,
    });
    expect(job.body.result.credits_charged).toBe(second.credits);
  });

  it("an empty search refunds and gives the quote back for the retry", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const quoted = await quote(user);
    reply([]);
    const empty = await discover(user, { ...body, quote_id: quoted.quote_id });
    expect(empty.status).toBe(200);
    expect(empty.body.credits_charged).toBe(0);
    expect(await balance(user)).toBe(before);
    reply([acme]);
    const retried = await discover(user, { ...body, quote_id: quoted.quote_id });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.credits_charged).toBe(quoted.credits);
  });
});
