import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { type Company, createCompany, orgIdOf } from "../support/orgs";
import { setPlan } from "../support/plans";

// Issue #22 item 3: the work records outside the customers module (quotations, products,
// discovery records and jobs, agent runs) under the one visibility rule of src/db/scope.ts, and
// the modules reading customers or products (ai-drafts, assistant, marketing, notifications)
// seeing only what the caller's role sees.

const ctx = await createTestContext();
const { app, deps } = ctx;

let llm: FakeOpenAi;
let search: FakeSearch;
beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-org-scope",
    search: { name: "fake-brave-org", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close()]);
});

const as =
  (user: Session) =>
  (path: string, options: Parameters<typeof call>[2] = {}) =>
    call(app, path, { token: user.accessToken, ...options });

/** A customer held by `holder` (the trigger puts it in the holder's organisation). */
async function customerHeldBy(holder: Session, company: string) {
  const [row] = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into customers (user_id, company) values (${holder.userId}, ${company}) returning id`,
  );
  return row!.id;
}

/** A customer in the organisation's pool (released by its holder, as the pool routes do). */
async function poolCustomer(company: Company, name: string) {
  const id = await customerHeldBy(company.owner, name);
  await queryRows(deps.db, sql`update customers set user_id = null where id = ${id}`);
  return id;
}

async function quotationBy(user: Session, customerId: string | null) {
  const { status, body } = await as(user)("/api/v1/quotations", {
    json: {
      customer_id: customerId,
      currency: "USD",
      items: [{ name: "Cup", quantity: 2, unit_price: 500 }],
    },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body as { id: string; org_id: string; user_id: string; owner_name: string | null };
}

const listIds = async (user: Session, path: string) => {
  const { status, body } = await as(user)(path);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.items as { id: string }[]).map((i) => i.id);
};

const ALL_SEEING = ["owner", "admin", "manager"] as const;

describe("quotations in a company", () => {
  /** A company with a quotation by the member, one by the colleague, one by the manager for the member's customer. */
  async function quotedCompany() {
    const company = await createCompany(ctx);
    const colleagues = await customerHeldBy(company.colleague, "Colleague's buyer");
    const members = await customerHeldBy(company.member, "Member's buyer");
    const mine = await quotationBy(company.member, members);
    const theirs = await quotationBy(company.colleague, colleagues);
    // Made by the manager for the member's customer: the member works it.
    const forMine = await quotationBy(company.manager, members);
    return { company, colleagues, members, mine, theirs, forMine };
  }

  it("lists and reads: a member's own and those of the customers they hold; managers and above all; an outsider nothing", async () => {
    const { company, colleagues, mine, theirs, forMine } = await quotedCompany();
    const { member, colleague, manager, outsider } = company;
    expect(mine).toMatchObject({
      org_id: await orgIdOf(ctx.database, company.owner),
      user_id: member.userId,
      owner_name: "Member",
    });
    expect(forMine).toMatchObject({ user_id: manager.userId, owner_name: "Manager" });

    expect(new Set(await listIds(member, "/api/v1/quotations"))).toEqual(
      new Set([mine.id, forMine.id]),
    );
    expect(await listIds(colleague, "/api/v1/quotations")).toEqual([theirs.id]);
    for (const role of ALL_SEEING) {
      expect(new Set(await listIds(company[role], "/api/v1/quotations"))).toEqual(
        new Set([mine.id, theirs.id, forMine.id]),
      );
      const got = await as(company[role])(`/api/v1/quotations/${theirs.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ user_id: colleague.userId, owner_name: "Colleague" });
    }
    expect(await listIds(outsider, "/api/v1/quotations")).toEqual([]);
    // The customer filter does not widen it.
    expect(await listIds(member, `/api/v1/quotations?customer_id=${colleagues}`)).toEqual([]);
  });

  it("a colleague's quotation is not found on every route with an id, for a member and an outsider; nothing changes", async () => {
    const { company, theirs } = await quotedCompany();
    for (const stranger of [company.member, company.outsider]) {
      const api = as(stranger);
      const one = `/api/v1/quotations/${theirs.id}`;
      const items = [{ name: "X", quantity: 1, unit_price: 1 }];
      expect((await api(one)).status).toBe(404);
      expect((await api(`${one}/export?format=xlsx`)).status).toBe(404);
      expect((await api(one, { method: "PATCH", json: { notes: "mine now" } })).status).toBe(404);
      expect((await api(one, { method: "PATCH", json: { items } })).status).toBe(404);
      expect((await api(one, { method: "PATCH", json: { status: "sent" } })).status).toBe(404);
      expect((await api(one, { method: "DELETE" })).status).toBe(404);
    }
    const [untouched] = await queryRows<{ notes: string | null; status: string; total: number }>(
      deps.db,
      sql`select notes, status, total from quotations where id = ${theirs.id}`,
    );
    expect(untouched).toEqual({ notes: null, status: "draft", total: 1000 });
  });

  it("a member works the quotations of the customers they hold; managers and above change any of the organisation's", async () => {
    const { company, theirs, forMine } = await quotedCompany();
    const { member, manager } = company;
    const patched = await as(member)(`/api/v1/quotations/${forMine.id}`, {
      method: "PATCH",
      json: { notes: "checked", status: "sent" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      notes: "checked",
      status: "sent",
      user_id: manager.userId,
    });
    expect((await as(member)(`/api/v1/quotations/${forMine.id}/export?format=xlsx`)).status).toBe(
      200,
    );

    for (const role of ALL_SEEING) {
      const changed = await as(company[role])(`/api/v1/quotations/${theirs.id}`, {
        method: "PATCH",
        json: { notes: role },
      });
      expect(changed.status).toBe(200);
    }
    expect(
      (await as(company.admin)(`/api/v1/quotations/${theirs.id}/export?format=xlsx`)).status,
    ).toBe(200);
    expect(
      (await as(manager)(`/api/v1/quotations/${theirs.id}`, { method: "DELETE" })).status,
    ).toBe(204);
  });

  it("a customer handed over brings its quotations: the new holder sees them, the maker keeps theirs", async () => {
    const company = await createCompany(ctx);
    const { member, colleague } = company;
    const customer = await customerHeldBy(colleague, "Handed over");
    const quote = await quotationBy(colleague, customer);
    expect((await as(member)(`/api/v1/quotations/${quote.id}`)).status).toBe(404);
    await queryRows(
      deps.db,
      sql`update customers set user_id = ${member.userId} where id = ${customer}`,
    );
    expect((await as(member)(`/api/v1/quotations/${quote.id}`)).status).toBe(200);
    expect(await listIds(member, "/api/v1/quotations")).toEqual([quote.id]);
    expect((await as(colleague)(`/api/v1/quotations/${quote.id}`)).status).toBe(200);
  });

  it("quotes only a customer the caller may work on: a colleague's or another organisation's is not found, a pool one is claimed first", async () => {
    const company = await createCompany(ctx);
    const { member, colleague, manager, outsider } = company;
    const colleagues = await customerHeldBy(colleague, "Not yours");
    const foreign = await customerHeldBy(outsider, "Other company's");
    const pooled = await poolCustomer(company, "In the pool");
    const items = [{ name: "Cup", quantity: 1, unit_price: 100 }];
    const create = (user: Session, customerId: string) =>
      as(user)("/api/v1/quotations", { json: { customer_id: customerId, currency: "USD", items } });

    for (const customerId of [colleagues, foreign]) {
      const refused = await create(member, customerId);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({
        loc: ["body", "customer_id"],
        type: "not_found",
      });
    }
    const inPool = await create(member, pooled);
    expect(inPool.status).toBe(422);
    expect(inPool.body.errors[0]).toMatchObject({ loc: ["body", "customer_id"], type: "in_pool" });
    expect((await create(manager, foreign)).status).toBe(422);

    // PATCH names a customer by the same rule.
    const own = await quotationBy(member, null);
    const patch = (customerId: string) =>
      as(member)(`/api/v1/quotations/${own.id}`, {
        method: "PATCH",
        json: { customer_id: customerId },
      });
    expect((await patch(colleagues)).status).toBe(422);
    expect((await patch(foreign)).status).toBe(422);
    expect((await patch(pooled)).status).toBe(422);

    // A manager quotes any customer of the organisation, the pool's too.
    expect((await create(manager, colleagues)).status).toBe(201);
    expect((await create(manager, pooled)).status).toBe(201);

    // From an inquiry: refused before any charge or model call.
    const fromInquiry = (customerId: string) =>
      as(member)("/api/v1/quotations/from-inquiry", {
        json: { inquiry_text: "500 pcs LED panels", customer_id: customerId },
      });
    expect((await fromInquiry(colleagues)).status).toBe(404);
    expect((await fromInquiry(foreign)).status).toBe(404);
    const poolInquiry = await fromInquiry(pooled);
    expect(poolInquiry.status).toBe(422);
    expect(poolInquiry.body.errors[0].type).toBe("in_pool");
  });

  it("documents show the member who made the quotation as the seller, whoever downloads them", async () => {
    const company = await createCompany(ctx);
    const customer = await customerHeldBy(company.member, "Buyer Ltd");
    const quote = await quotationBy(company.member, customer);
    const { quotationDocument } = await import("../../src/modules/quotations/service");
    const doc = await quotationDocument(deps, company.manager.userId, quote.id);
    expect(doc.parties.seller_name).toBe("Member");
    expect(doc.parties.customer_company).toBe("Buyer Ltd");
  });

  it("numbers quotations per member: two members of one company both start at -001", async () => {
    const company = await createCompany(ctx);
    const a = await quotationBy(company.member, null);
    const b = await quotationBy(company.colleague, null);
    const numbers = await queryRows<{ quote_no: string }>(
      deps.db,
      sql`select quote_no from quotations where id in (${a.id}, ${b.id})`,
    );
    expect(numbers.map((n) => n.quote_no.slice(-4))).toEqual(["-001", "-001"]);
  });
});

describe("the product catalogue in a company", () => {
  it("is shared: every member reads and quotes it, manager and above change it, an outsider sees nothing", async () => {
    const company = await createCompany(ctx);
    const { member, colleague, manager, outsider } = company;
    const created = await as(manager)("/api/v1/products", {
      json: { name: "Bamboo lid", sku: "LID", price: 250, currency: "USD" },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    for (const user of [member, colleague, company.admin, company.owner]) {
      expect(await listIds(user, "/api/v1/products")).toEqual([id]);
      expect((await as(user)(`/api/v1/products/${id}`)).status).toBe(200);
    }
    // A member quotes from the catalogue.
    const quote = await as(member)("/api/v1/quotations", {
      json: { currency: "USD", items: [{ product_id: id, quantity: 3 }] },
    });
    expect(quote.status).toBe(201);
    expect(quote.body.total).toBe(750);

    // A member does not change it: 403 naming the roles; nothing written.
    const refusedCreate = await as(member)("/api/v1/products", {
      json: { name: "Member's own", currency: "USD" },
    });
    expect(refusedCreate.status).toBe(403);
    expect(refusedCreate.body.code).toBe("forbidden");
    expect(refusedCreate.body.detail).toMatch(/manager/);
    const refusedPatch = await as(member)(`/api/v1/products/${id}`, {
      method: "PATCH",
      json: { price: 1 },
    });
    expect(refusedPatch.status).toBe(403);
    expect((await as(member)(`/api/v1/products/${id}`, { method: "DELETE" })).status).toBe(403);
    // Nor through an import: refused as a whole, nothing written.
    const form = new FormData();
    const csv = "name,sku,price,currency\nImported lid,IMP-1,1.00,USD\n";
    form.append("file", new File([csv], "products.csv", { type: "text/csv" }));
    const refusedImport = await call(ctx.app, "/api/v1/products/import", {
      method: "POST",
      token: member.accessToken,
      body: form,
    });
    expect(refusedImport.status).toBe(403);
    expect(refusedImport.body.code).toBe("forbidden");
    expect((await as(manager)(`/api/v1/products/${id}`)).body.price).toBe(250);
    expect(await listIds(manager, "/api/v1/products")).toEqual([id]);

    // Another organisation: not found, and its quotation cannot use the product.
    expect(await listIds(outsider, "/api/v1/products")).toEqual([]);
    for (const request of [
      as(outsider)(`/api/v1/products/${id}`),
      as(outsider)(`/api/v1/products/${id}`, { method: "PATCH", json: { price: 1 } }),
      as(outsider)(`/api/v1/products/${id}`, { method: "DELETE" }),
    ]) {
      expect((await request).status).toBe(404);
    }
    const foreignItem = await as(outsider)("/api/v1/quotations", {
      json: { currency: "USD", items: [{ product_id: id, quantity: 1 }] },
    });
    expect(foreignItem.status).toBe(422);

    // Admin and owner keep it too; the SKU is unique in the organisation, not per member.
    const patched = await as(company.admin)(`/api/v1/products/${id}`, {
      method: "PATCH",
      json: { price: 300 },
    });
    expect(patched.status).toBe(200);
    const duplicate = await as(company.owner)("/api/v1/products", {
      json: { name: "Another lid", sku: "LID", currency: "USD" },
    });
    expect(duplicate.status).toBe(409);
    const elsewhere = await as(outsider)("/api/v1/products", {
      json: { name: "Their lid", sku: "LID", currency: "USD" },
    });
    expect(elsewhere.status).toBe(201);
    expect((await as(company.owner)(`/api/v1/products/${id}`, { method: "DELETE" })).status).toBe(
      204,
    );
  });
});

describe("discovery records and jobs in a company", () => {
  async function recordOf(user: Session, product: string) {
    const { status, body } = await as(user)("/api/v1/discovery/records", {
      json: { product, market: "Germany", companies: [] },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return body as { id: string; user_id: string; org_id: string; owner_name: string };
  }

  async function jobOf(user: Session) {
    const [row] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into discovery_jobs (user_id, status, product, market, credits_charged,
            balance_after, progress)
          values (${user.userId}, 'succeeded', 'LED', 'Germany', 0, 0,
            '{"queries": [], "analysis": {"status": "skipped", "provider": null, "companies": null}}'::jsonb)
          returning id`,
    );
    return row!.id;
  }

  it("records: a member's own, all of the organisation for manager and above, nothing for an outsider", async () => {
    const company = await createCompany(ctx);
    const { member, colleague, outsider } = company;
    const mine = await recordOf(member, "Mine");
    const theirs = await recordOf(colleague, "Theirs");
    expect(mine).toMatchObject({
      user_id: member.userId,
      org_id: await orgIdOf(ctx.database, company.owner),
      owner_name: "Member",
    });

    expect(await listIds(member, "/api/v1/discovery/records")).toEqual([mine.id]);
    for (const role of ALL_SEEING) {
      expect(new Set(await listIds(company[role], "/api/v1/discovery/records"))).toEqual(
        new Set([mine.id, theirs.id]),
      );
    }
    expect(await listIds(outsider, "/api/v1/discovery/records")).toEqual([]);

    for (const stranger of [member, outsider]) {
      const api = as(stranger);
      expect((await api(`/api/v1/discovery/records/${theirs.id}`)).status).toBe(404);
      expect(
        (await api(`/api/v1/discovery/records/${theirs.id}`, { method: "DELETE" })).status,
      ).toBe(404);
      expect(
        (await api(`/api/v1/discovery/records?id=${theirs.id}`, { method: "DELETE" })).status,
      ).toBe(404);
    }
    const got = await as(company.manager)(`/api/v1/discovery/records/${theirs.id}`);
    expect(got.body).toMatchObject({ user_id: colleague.userId, owner_name: "Colleague" });
    expect(
      (await as(company.admin)(`/api/v1/discovery/records/${theirs.id}`, { method: "DELETE" }))
        .status,
    ).toBe(204);
  });

  it("jobs: a member's own, any of the organisation for manager and above", async () => {
    const company = await createCompany(ctx);
    const theirs = await jobOf(company.colleague);
    const mine = await jobOf(company.member);
    expect((await as(company.member)(`/api/v1/discovery/jobs/${mine}`)).status).toBe(200);
    expect((await as(company.member)(`/api/v1/discovery/jobs/${theirs}`)).status).toBe(404);
    expect((await as(company.outsider)(`/api/v1/discovery/jobs/${theirs}`)).status).toBe(404);
    for (const role of ALL_SEEING) {
      const got = await as(company[role])(`/api/v1/discovery/jobs/${theirs}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        user_id: company.colleague.userId,
        org_id: await orgIdOf(ctx.database, company.owner),
        owner_name: "Colleague",
      });
    }
  });
});

describe("agent runs in a company", () => {
  async function runOf(user: Session, status = "succeeded") {
    const [row] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into agent_pipelines (user_id, status, product, market)
          values (${user.userId}, ${status}, 'LED', 'Germany') returning id`,
    );
    return row!.id;
  }

  it("a member's own, all of the organisation for manager and above, on every route with an id", async () => {
    const company = await createCompany(ctx);
    const { member, colleague, outsider } = company;
    // Runs count against the plan's agent runs (the business plan has them).
    for (const user of [company.owner, member, colleague])
      await setPlan(deps, user.userId, "business");
    const mine = await runOf(member);
    const theirs = await runOf(colleague);
    const running = await runOf(colleague, "queued");

    expect(await listIds(member, "/api/v1/agent/pipelines")).toEqual([mine]);
    for (const role of ALL_SEEING) {
      expect(new Set(await listIds(company[role], "/api/v1/agent/pipelines"))).toEqual(
        new Set([mine, theirs, running]),
      );
    }
    expect(await listIds(outsider, "/api/v1/agent/pipelines")).toEqual([]);

    for (const stranger of [member, outsider]) {
      const api = as(stranger);
      expect((await api(`/api/v1/agent/${theirs}`)).status).toBe(404);
      expect((await api(`/api/v1/agent/${theirs}/events`)).status).toBe(404);
      expect((await api(`/api/v1/agent/${running}/cancel`, { method: "POST" })).status).toBe(404);
    }
    const [still] = await queryRows<{ status: string }>(
      deps.db,
      sql`select status from agent_pipelines where id = ${running}`,
    );
    expect(still!.status).toBe("queued");

    const got = await as(company.manager)(`/api/v1/agent/${theirs}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      user_id: colleague.userId,
      org_id: await orgIdOf(ctx.database, company.owner),
      owner_name: "Colleague",
    });
    expect((await as(company.manager)(`/api/v1/agent/${theirs}/events`)).status).toBe(200);
    const cancelled = await as(company.admin)(`/api/v1/agent/${running}/cancel`, {
      method: "POST",
    });
    expect(cancelled.status).toBe(200);
  });

  it("saves the leads as customers held by the member who ran it, in the organisation; duplicates are judged by what that member sees", async () => {
    const company = await createCompany(ctx);
    const { member, colleague } = company;
    for (const user of [company.owner, member]) await setPlan(deps, user.userId, "business");
    const orgId = await orgIdOf(ctx.database, company.owner);
    // The colleague's customer with a lead's name is not the member's: the member saves it too.
    await customerHeldBy(colleague, "Alpha Lighting GmbH");
    search.results(() => [
      { title: "Alpha Lighting GmbH", url: "https://alpha.example/", snippet: "LED importer" },
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
      return JSON.stringify({ subject: "Panels", body: "Hello" });
    });

    const started = await as(member)("/api/v1/agent/start", {
      json: { product: "LED panel lights", market: "Germany", max_leads: 1 },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await pendingAgentRuns();
    const run = await as(member)(`/api/v1/agent/${started.body.id}`);
    expect(run.body.status, JSON.stringify(run.body)).toBe("succeeded");
    expect(run.body.pipeline_data.summary.saved).toBe(1);

    const saved = await queryRows<{ user_id: string; org_id: string; source: string }>(
      deps.db,
      sql`select user_id, org_id, source from customers
          where company = 'Alpha Lighting GmbH' and user_id = ${member.userId}`,
    );
    expect(saved).toEqual([{ user_id: member.userId, org_id: orgId, source: "agent" }]);
    // The run's discovery record is the member's too, in the organisation.
    const recordId = run.body.pipeline_data.stages.at(-1).detail.discovery_record_id as string;
    const record = await as(member)(`/api/v1/discovery/records/${recordId}`);
    expect(record.body).toMatchObject({ user_id: member.userId, org_id: orgId });
    expect((await as(colleague)(`/api/v1/discovery/records/${recordId}`)).status).toBe(404);
  });

  it("saves no leads for a member who left the organisation while the run went on", async () => {
    const company = await createCompany(ctx);
    const { member } = company;
    for (const user of [company.owner, member]) await setPlan(deps, user.userId, "business");
    const orgId = await orgIdOf(ctx.database, company.owner);
    search.results(() => [
      { title: "Beta Lamps BV", url: "https://beta.example/", snippet: "LED importer" },
    ]);
    llm.reply((messages) => {
      const system = messages.find((m) => m.role === "system")?.content ?? "";
      if (system.includes("find companies")) {
        return JSON.stringify({
          companies: [
            {
              name: "Beta Lamps BV",
              website: "https://beta.example/",
              country: "Netherlands",
              summary: "Buys LED panels",
              fit_score: 90,
              contact: { email: "sales@beta.example", phone: null },
              sources: ["https://beta.example/"],
            },
          ],
        });
      }
      return JSON.stringify({ subject: "Panels", body: "Hello" });
    });
    const started = await as(member)("/api/v1/agent/start", {
      json: { product: "LED panel lights", market: "Netherlands", max_leads: 1 },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const removed = await call(ctx.app, `/api/v1/org/members/${member.userId}`, {
      method: "DELETE",
      token: company.owner.accessToken,
      csrf: company.owner.csrfToken,
      json: {},
    });
    expect(removed.status).toBe(200);
    await pendingAgentRuns();

    // No customer anywhere from the lead: not in the company, not in the member's new one.
    const saved = await queryRows<{ org_id: string }>(
      deps.db,
      sql`select org_id from customers where company = 'Beta Lamps BV'`,
    );
    expect(saved).toEqual([]);
    // The run stays the company's: a manager still reads it and its leads.
    const run = await as(company.manager)(`/api/v1/agent/${started.body.id}`);
    expect(run.status).toBe(200);
    expect(run.body.org_id).toBe(orgId);
  });
});

describe("modules reading customers and personal records", () => {
  it("a follow-up draft is for a customer the caller sees: a colleague's or another organisation's is not found", async () => {
    const company = await createCompany(ctx);
    const colleagues = await customerHeldBy(company.colleague, "Colleague's");
    const foreign = await customerHeldBy(company.outsider, "Foreign");
    for (const id of [colleagues, foreign]) {
      const answer = await as(company.member)(`/api/v1/customers/${id}/followups/draft`, {
        json: { channel: "email" },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
    }
  });

  it("assistant conversations and notifications stay personal, even from the owner", async () => {
    const company = await createCompany(ctx);
    const { member } = company;
    const [conversation] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into ai_conversations (user_id, title) values (${member.userId}, 'Pricing for Acme')
          returning id`,
    );
    await queryRows(
      deps.db,
      sql`insert into notifications (user_id, kind, title, body)
          values (${member.userId}, 'reminder', 'Call Acme', 'Acme is waiting')`,
    );
    expect(await listIds(member, "/api/v1/ai/conversations")).toEqual([conversation!.id]);
    for (const user of [company.owner, company.manager, company.colleague]) {
      expect(await listIds(user, "/api/v1/ai/conversations")).toEqual([]);
      expect((await as(user)(`/api/v1/ai/conversations/${conversation!.id}`)).status).toBe(404);
      const notes = await as(user)("/api/v1/notifications");
      expect(notes.status).toBe(200);
      expect(JSON.stringify(notes.body)).not.toContain("Call Acme");
    }
  });

  it("marketing copy is written from the organisation's catalogue, not another organisation's", async () => {
    const company = await createCompany(ctx);
    const created = await as(company.owner)("/api/v1/products", {
      json: { name: "Steel cup", currency: "USD" },
    });
    expect(created.status).toBe(201);
    // Refused before any charge or model call.
    const foreign = await as(company.outsider)("/api/v1/marketing/generate", {
      json: { kind: "product_description", product_id: created.body.id, language: "en" },
    });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
  });
});
