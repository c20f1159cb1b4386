import { randomUUID } from "node:crypto";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import { pendingJobs } from "../../src/modules/jobs/background";
import type { RateLimiter } from "../../src/providers/ratelimit/types";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, randomEmail, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { openApiSampler, type Schema } from "../support/openapi-sample";
import { type Company, createCompany } from "../support/orgs";
import { setPlan } from "../support/plans";

/**
 * The common route rules, swept over every operation of the served OpenAPI document (as unkey's
 * route tests do), so a route added later is held to them without a test of its own:
 * - an operation that takes a bearer token answers 401 `{detail}` with none, with a forged one
 *   (bad signature, another key, expired, unsigned);
 * - an operation with a uuid path parameter answers 422 with `loc: ["path", name]` for a
 *   non-UUID, and 404 for a real row of another organisation and for one another member holds
 *   (admin routes: an unknown uuid), while a manager sees a member's rows (issue #22; the
 *   company comes from test/support/orgs.ts).
 * Every response is also checked against the document (test/support/contract.ts, strict).
 */

// Budgets would turn the sweep into 429s; they have their own suites.
const unlimited: RateLimiter = {
  consume: async (rule) => ({
    allowed: true,
    limit: rule.points,
    remaining: rule.points,
    resetMs: 0,
  }),
};
const ctx = await createTestContext({ runtime: { limiter: unlimited } });
const { app, deps } = ctx;

const doc = (await call(app, "/api/v1/openapi.json")).body as Schema;

const { resolve, sample } = openApiSampler(doc, {
  text: "sweep",
  uuid: randomUUID,
  requiredOnly: true,
});

interface PathParam {
  name: string;
  uuid: boolean;
}
interface Operation {
  method: string;
  path: string;
  label: string;
  bearer: boolean;
  params: PathParam[];
  body: Schema | undefined;
  admin: boolean;
}

const operations: Operation[] = [];
for (const [path, item] of Object.entries<Schema>(doc.paths)) {
  for (const [method, op] of Object.entries<Schema>(item)) {
    if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])]
      .map((p: Schema) => resolve(p))
      .filter((p) => p.in === "path")
      .map((p) => ({ name: p.name as string, uuid: resolve(p.schema).format === "uuid" }));
    operations.push({
      method: method.toUpperCase(),
      path,
      label: `${method.toUpperCase()} ${path}`,
      bearer: (op.security ?? []).some((r: Schema) => "bearerAuth" in r),
      params,
      body: op.requestBody?.content?.["application/json"]?.schema,
      admin: path.startsWith("/api/v1/admin/"),
    });
  }
}
const bearerOps = operations.filter((op) => op.bearer);
const uuidOps = operations.filter((op) => op.params.some((p) => p.uuid));

/** Values for path parameters that are not uuids (no row behind them is needed here). */
const PLAIN_PARAMS: Record<string, string> = {
  key: "credits.costs",
  order_no: "TA-SWEEP-0000",
  name: "sweep",
};
const SAMPLE_PARAM = (name: string) => PLAIN_PARAMS[name] ?? "sweep";

/**
 * Whose row a uuid parameter names, by the path segment before it (`/customers/{id}/health` ->
 * `customers`). A route whose segment is missing here fails the 404 rules until it is added:
 * either a real row (below, created through the API) or an entry in RANDOM_ONLY with the reason.
 * `outsiders`: rows of another organisation; `colleagues`: rows another member of the caller's
 * organisation holds.
 */
const outsidersIds: Record<string, string> = {};
const colleaguesIds: Record<string, string> = {};
/**
 * Segments that get an unknown random uuid instead, with why. Admin routes see every user's
 * rows, so "another user's row" means nothing there: an admin session and an unknown id.
 */
const RANDOM_ONLY: [prefix: string, reason: string][] = [
  ["/api/v1/admin/", "admin routes see every user's rows: an unknown uuid, admin session"],
];
/**
 * Operations out of the uuid rules, with why. None today: public routes (callbacks, the
 * sandbox checkout, jobs) take no uuid path parameter.
 */
const EXCEPTIONS: Record<string, string> = {};
/**
 * Segments whose rows belong to the whole organisation, not to a member, with why: "another
 * member's id" is no refusal there (docs/teams.md, the roles matrix).
 */
const ORGANISATION_WIDE: Record<string, string> = {
  products: "the product catalogue is shared: every member reads it",
  glossary: "the glossary is the organisation's, kept like the catalogue: every member reads it",
  members: "an organisation's members are managed by its admins: a member's id is what it takes",
  invitations: "invitations are the organisation's, sent by its admins",
  faq: "the FAQ is the organisation's: every member reads it, its owner and admins write it",
};
/** Segments whose rows stay their author's alone (a manager does not see them), with why. */
const PERSONAL: Record<string, string> = {
  conversations: "an assistant conversation is its author's, not an organisation record",
  translations: "a translation is its author's, not an organisation record",
};

const segmentBefore = (path: string, param: string) => {
  const parts = path.split("/");
  return parts[parts.indexOf(`{${param}}`) - 1] ?? "";
};
const segmentsOf = (op: Operation) =>
  op.params.filter((p) => p.uuid).map((p) => segmentBefore(op.path, p.name));
function idFor(op: Operation, param: string, ids: Record<string, string>): string | undefined {
  if (RANDOM_ONLY.some(([prefix]) => op.path.startsWith(prefix))) return randomUUID();
  return ids[segmentBefore(op.path, param)];
}

let company: Company;
/** The caller of the organisation rules: a plain member of `company`. */
let user: Session;
let admin: Session;
let llm: FakeOpenAi;
let search: FakeSearch;

const COMPANY = {
  name: "Sweep Imports Ltd",
  website: "https://sweep-imports.example/",
  country: "Germany",
  summary: "Imports LED panels",
  fit_score: 80,
  contact: { email: "sales@sweep-imports.example", phone: null },
  sources: ["https://sweep-imports.example/"],
};

/** A chat message the fake model answers with an action proposal. */
const PROPOSE_ACTION = "Sweep: add the customer Sweep Action";

/**
 * Creates one row of each kind for `owner`, through the API, and records its id in `ids`.
 * The product catalogue is written by `catalogue` (manager+ edit it).
 */
async function seedRows(owner: Session, catalogue: Session, ids: Record<string, string>) {
  const as = (s: Session) => ({ token: s.accessToken, csrf: s.csrfToken, ip: s.ip });
  const created = async (path: string, json: unknown, status = 201, by = owner) => {
    const res = await call(app, path, { ...as(by), json });
    expect(res.status, `${path}: ${show(res.body)}`).toBe(status);
    return res.body;
  };
  const customer = await created("/api/v1/customers", { company: "Sweep Co" });
  ids.customers = customer.id;
  // Follow-ups have no id of their own in a path: they hang off the customer above.
  await created(`/api/v1/customers/${customer.id}/followups`, {
    channel: "email",
    note: "Called them",
  });
  ids.products = (
    await created("/api/v1/products", { name: `Sweep ${randomUUID()}`, price: 10 }, 201, catalogue)
  ).id;
  ids.glossary = (
    await created(
      "/api/v1/glossary",
      {
        source_lang: "en",
        target_lang: "es",
        source_term: `Sweep ${randomUUID()}`,
        target_term: "Barrido",
      },
      201,
      catalogue,
    )
  ).id;
  ids.quotations = (
    await created("/api/v1/quotations", {
      currency: "USD",
      items: [{ name: "Sweep", quantity: 1, unit_price: 10 }],
    })
  ).id;
  ids.conversations = (await created("/api/v1/ai/chat", { message: "Hello" }, 200)).conversation_id;
  // The assistant's proposal (an ai_actions row) and an accepted reply's FAQ entry (ADR 0113).
  ids.actions = (await created("/api/v1/ai/chat", { message: PROPOSE_ACTION }, 200)).action.id;
  const withReplies = await created(
    "/api/v1/translate",
    { text: "Bonjour", target_lang: "en", with_replies: true },
    200,
  );
  ids.replies = withReplies.replies[0].id;
  ids.faq = (
    await created(
      "/api/v1/faq",
      { question: "Sweep?", answer: "Sweep.", language: "en" },
      201,
      catalogue,
    )
  ).id;
  ids.translations = (
    await created("/api/v1/translate", { text: "Bonjour", target_lang: "en" }, 200)
  ).id;
  ids.jobs = (
    await created("/api/v1/discovery/jobs", { product: "LED panels", market: "Germany" }, 202)
  ).id;
  const found = await created(
    "/api/v1/discovery/search",
    { product: "LED panels", market: "Germany" },
    200,
  );
  ids.records = (
    await created("/api/v1/discovery/records", {
      product: found.product,
      market: found.market,
      companies: found.companies,
    })
  ).id;
  // Notifications have no id in a path (PATCH /notifications takes ids in its body), and
  // /payments/orders/{order_no} is not a uuid: neither is in these rules.
  // /agent/{id} and /api/v1/agent/{id} are one resource under two prefixes.
  const run = await created("/agent/start", { product: "LED panels", market: "Germany" }, 202);
  ids.agent = run.id;
  // The organisation's own: its members (by user id) and an invitation, which its owner sends.
  ids.members = owner.userId;
  ids.invitations = (
    await created(
      "/api/v1/org/invitations",
      { email: randomEmail(), role: "member" },
      201,
      catalogue,
    )
  ).id;
}

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-sweep",
    search: { name: "fake-brave", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft", "chat", "translate"],
  }));
  search.results(() => [
    { title: COMPANY.name, url: COMPANY.website, snippet: `LED panels. ${COMPANY.contact.email}` },
  ]);
  llm.reply((messages) => {
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    if (messages.at(-1)?.content === PROPOSE_ACTION) {
      return 'Prepared.\n```action\n{"type":"add_customer","data":{"company":"Sweep Action"}}\n```';
    }
    if (system.includes('"replies"')) {
      return JSON.stringify({ replies: [{ text: "Thank you", translation: "Merci" }] });
    }
    if (system.includes("find companies")) return JSON.stringify({ companies: [COMPANY] });
    return JSON.stringify({ source_lang: "FR", translation: "Hello", subject: "Hi", body: "Hi" });
  });
  [company, admin] = await Promise.all([createCompany(ctx), registerAdmin(ctx)]);
  user = company.member;
  // Business plan: every feature, so no route stops at its plan gate before its lookup.
  await setPlan(deps, company.owner.userId, "business");
  await setPlan(deps, company.outsider.userId, "business");
  await seedRows(company.outsider, company.outsider, outsidersIds);
  await seedRows(company.colleague, company.owner, colleaguesIds);
});
afterAll(async () => {
  await Promise.all([pendingAgentRuns(), pendingJobs()]);
  await Promise.all([llm.close(), search.close()]);
});

/** Bodies the sample cannot guess, with why. */
const BODIES: Record<string, unknown> = {
  // The first plain field, currency, must come with the items priced in it.
  "PATCH /api/v1/quotations/{id}": { notes: "sweep" },
};

const fill = (op: Operation, value: (param: PathParam) => string) =>
  op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    value(op.params.find((p) => p.name === name) ?? { name, uuid: false }),
  );
const randomIds = (p: PathParam) => (p.uuid ? randomUUID() : SAMPLE_PARAM(p.name));
/** Admin routes: the platform admin; others: the company's owner, whom no role gate stops. */
const sessionFor = (op: Operation) => (op.admin ? admin : company.owner);

/** The operation with `token` (or none), a valid body and, for writes, the CSRF header. */
function send(op: Operation, url: string, token: string | undefined, session?: Session) {
  return call(app, url, {
    method: op.method,
    token,
    csrf: session?.csrfToken,
    ip: session?.ip ?? "198.51.100.9",
    json:
      BODIES[op.label] ??
      (op.body ? sample(op.body) : ["GET", "DELETE"].includes(op.method) ? undefined : {}),
  });
}

/** A response body for a failure message, cut short (exports are whole spreadsheets). */
const show = (body: unknown) => String(JSON.stringify(body)).slice(0, 300);

const expect401 = (res: { status: number; body: any }, what: string) => {
  expect(res.status, `${what}: ${show(res.body)}`).toBe(401);
  expect(typeof res.body?.detail, what).toBe("string");
};

describe("the document has operations to sweep", () => {
  it("lists bearer and uuid-parameter operations", () => {
    expect(bearerOps.length).toBeGreaterThan(100);
    expect(uuidOps.length).toBeGreaterThan(40);
  });
});

describe("no token -> 401 {detail}", () => {
  it.each(bearerOps.map((op) => [op.label, op] as const))("%s", async (_label, op) => {
    expect401(await send(op, fill(op, randomIds), undefined), "no token");
  });
});

describe("forged tokens -> 401", () => {
  const secret = new TextEncoder().encode("another-secret-0123456789abcdef0123456789");
  const forged: Record<string, string> = {};
  beforeAll(async () => {
    const claims = decodeJwt(user.accessToken);
    const now = Math.floor(Date.now() / 1000);
    // The real user's claims, promoted to admin: a forger would ask for the most.
    const build = () =>
      new SignJWT({ sid: claims.sid, role: "admin", guest: false })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(user.userId)
        .setIssuer(deps.config.JWT_ISSUER)
        .setAudience(deps.config.JWT_AUDIENCE);
    const [header, payload, signature] = user.accessToken.split(".") as [string, string, string];
    // Right shape and claims, signature of another token's length but not this token's.
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    forged["bad signature"] = `${header}.${payload}.${flipped}`;
    forged["another secret"] = await build()
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(secret);
    forged.expired = await build()
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(deps.keys.jwt);
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    forged["alg none"] = `${none}.${payload}.`;
  });

  it.each(bearerOps.map((op) => [op.label, op] as const))("%s", async (_label, op) => {
    expect(Object.keys(forged)).toHaveLength(4);
    const url = fill(op, randomIds);
    for (const [kind, token] of Object.entries(forged)) {
      expect401(await send(op, url, token), kind);
    }
  });
});

describe("a non-UUID id -> 422 at loc ['path', name]", () => {
  const cases = uuidOps.flatMap((op) =>
    op.params.filter((p) => p.uuid).map((p) => [`${op.label} {${p.name}}`, op, p.name] as const),
  );
  it.each(cases)("%s", async (_label, op, name) => {
    const session = sessionFor(op);
    const url = fill(op, (p) => (p.name === name ? "not-a-uuid" : randomIds(p)));
    const res = await send(op, url, session.accessToken, session);
    expect(res.status, show(res.body)).toBe(422);
    expect(typeof res.body.detail).toBe("string");
    expect(res.body.errors[0].loc.slice(0, 2)).toEqual(["path", name]);
  });
});

/** The operation sent by `session` with the ids of `ids` (a random one for RANDOM_ONLY). */
function sendWith(op: Operation, session: Session, ids: Record<string, string>) {
  const url = fill(op, (p) => (p.uuid ? idFor(op, p.name, ids)! : SAMPLE_PARAM(p.name)));
  return send(op, url, session.accessToken, session);
}

const missingRows = (op: Operation, ids: Record<string, string>) =>
  op.params
    .filter((p) => p.uuid && idFor(op, p.name, ids) === undefined)
    .map((p) => segmentBefore(op.path, p.name));

/**
 * A 404 for `session`, or a 403 `forbidden` when the route refuses the caller's role whatever
 * the row (a random id is refused alike): then `withRole`, whom the role gate lets through,
 * must get the 404. A 403 for the real row alone would tell the row exists: that fails.
 */
async function expectNotFound(
  op: Operation,
  session: Session,
  ids: Record<string, string>,
  withRole?: Session,
) {
  const res = await sendWith(op, session, ids);
  if (res.status === 403 && res.body?.code === "forbidden") {
    const unknown = await send(op, fill(op, randomIds), session.accessToken, session);
    expect(unknown.status, `a 403 for the real row only: ${show(res.body)}`).toBe(403);
    if (!withRole) return;
    const allowed = await sendWith(op, withRole, ids);
    expect(allowed.status, show(allowed.body)).toBe(404);
    expect(typeof allowed.body.detail).toBe("string");
    return;
  }
  expect(res.status, show(res.body)).toBe(404);
  expect(typeof res.body.detail).toBe("string");
}

// The rows are real: their owner reads each of them, so the 404s below are not for a typo.
// (The PDF export answers 503 here, where no renderer is configured: it found the row.)
const ownerReads = uuidOps.filter(
  (op) => op.method === "GET" && !op.admin && !op.path.endsWith("/events"),
);

describe("another organisation's id -> 404 (admin routes: an unknown id)", () => {
  it.each(ownerReads.map((op) => [op.label, op] as const))("its owner reads %s", async (_l, op) => {
    const res = await sendWith(op, company.outsider, outsidersIds);
    expect(res.status, show(res.body)).toBeOneOf([200, 503]);
  });

  it.each(uuidOps.map((op) => [op.label, op] as const))("%s", async (label, op) => {
    if (EXCEPTIONS[label]) return;
    expect(missingRows(op, outsidersIds), "no row of another organisation: seed one").toEqual([]);
    if (op.admin) {
      const res = await sendWith(op, admin, outsidersIds);
      expect(res.status, show(res.body)).toBe(404);
      return;
    }
    // A member, and the owner where the member's role is refused: no role reaches another
    // organisation's rows.
    await expectNotFound(op, user, outsidersIds, company.owner);
  });
});

describe("another member's id -> 404; a manager's -> found", () => {
  const memberRows = uuidOps.filter(
    (op) =>
      !op.admin &&
      !EXCEPTIONS[op.label] &&
      !segmentsOf(op).some((segment) => ORGANISATION_WIDE[segment]),
  );

  it.each(ownerReads.map((op) => [op.label, op] as const))(
    "the member who holds it reads %s",
    async (_l, op) => {
      const res = await sendWith(op, company.colleague, colleaguesIds);
      expect(res.status, show(res.body)).toBeOneOf([200, 503]);
    },
  );

  it.each(memberRows.map((op) => [op.label, op] as const))("%s", async (_label, op) => {
    expect(missingRows(op, colleaguesIds), "no row of another member: seed one").toEqual([]);
    await expectNotFound(op, user, colleaguesIds);
  });

  const managerReads = ownerReads.filter(
    (op) => !segmentsOf(op).some((segment) => PERSONAL[segment] || ORGANISATION_WIDE[segment]),
  );
  it.each(managerReads.map((op) => [op.label, op] as const))(
    "a manager reads %s",
    async (_l, op) => {
      const res = await sendWith(op, company.manager, colleaguesIds);
      expect(res.status, show(res.body)).toBeOneOf([200, 503]);
    },
  );
});
