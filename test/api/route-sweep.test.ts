import { randomUUID } from "node:crypto";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingAgentRuns } from "../../src/modules/agent/service";
import { pendingJobs } from "../../src/modules/jobs/background";
import type { RateLimiter } from "../../src/providers/ratelimit/types";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { openApiSampler, type Schema } from "../support/openapi-sample";
import { registerBusinessUser } from "../support/plans";

/**
 * The common route rules, swept over every operation of the served OpenAPI document (as unkey's
 * route tests do), so a route added later is held to them without a test of its own:
 * - an operation that takes a bearer token answers 401 `{detail}` with none, with a forged one
 *   (bad signature, another key, expired, unsigned);
 * - an operation with a uuid path parameter answers 422 with `loc: ["path", name]` for a
 *   non-UUID, and 404 for another user's real row (admin routes: an unknown uuid).
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
 * `customers`). A route whose segment is missing here fails the 404 rule until it is added:
 * either a real row of another user (below, created through the API) or an entry in
 * RANDOM_ONLY with the reason.
 */
const otherUsersIds: Record<string, string> = {};
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

const segmentBefore = (path: string, param: string) => {
  const parts = path.split("/");
  return parts[parts.indexOf(`{${param}}`) - 1] ?? "";
};
function idFor(op: Operation, param: string): string | undefined {
  if (RANDOM_ONLY.some(([prefix]) => op.path.startsWith(prefix))) return randomUUID();
  return otherUsersIds[segmentBefore(op.path, param)];
}

let user: Session;
let admin: Session;
let other: Session;
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

/** Creates one row of each kind for `other`, through the API, and records its id. */
async function seedOtherUsersRows() {
  const as = { token: other.accessToken, csrf: other.csrfToken, ip: other.ip };
  const created = async (path: string, json: unknown, status = 201) => {
    const res = await call(app, path, { ...as, json });
    expect(res.status, `${path}: ${show(res.body)}`).toBe(status);
    return res.body;
  };
  const customer = await created("/api/v1/customers", { company: "Sweep Co" });
  otherUsersIds.customers = customer.id;
  // Follow-ups have no id of their own in a path: they hang off the customer above.
  await created(`/api/v1/customers/${customer.id}/followups`, {
    channel: "email",
    note: "Called them",
  });
  otherUsersIds.products = (await created("/api/v1/products", { name: "Sweep", price: 10 })).id;
  otherUsersIds.quotations = (
    await created("/api/v1/quotations", {
      currency: "USD",
      items: [{ name: "Sweep", quantity: 1, unit_price: 10 }],
    })
  ).id;
  otherUsersIds.conversations = (
    await created("/api/v1/ai/chat", { message: "Hello" }, 200)
  ).conversation_id;
  otherUsersIds.translations = (
    await created("/api/v1/translate", { text: "Bonjour", target_lang: "en" }, 200)
  ).id;
  otherUsersIds.jobs = (
    await created("/api/v1/discovery/jobs", { product: "LED panels", market: "Germany" }, 202)
  ).id;
  const found = await created(
    "/api/v1/discovery/search",
    { product: "LED panels", market: "Germany" },
    200,
  );
  otherUsersIds.records = (
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
  otherUsersIds.agent = run.id;
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
    if (system.includes("find companies")) return JSON.stringify({ companies: [COMPANY] });
    return JSON.stringify({ source_lang: "FR", translation: "Hello", subject: "Hi", body: "Hi" });
  });
  // Business plan: every feature, so no route stops at its plan gate before its lookup.
  [user, other, admin] = await Promise.all([
    registerBusinessUser(app, deps),
    registerBusinessUser(app, deps),
    registerAdmin(ctx),
  ]);
  await seedOtherUsersRows();
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
const sessionFor = (op: Operation) => (op.admin ? admin : user);

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

describe("another user's id -> 404 (admin routes: an unknown id)", () => {
  // The rows are real: their owner reads each of them, so the 404s below are not for a typo.
  // (The PDF export answers 503 here, where no renderer is configured: it found the row.)
  const ownerReads = uuidOps.filter(
    (op) => op.method === "GET" && !op.admin && !op.path.endsWith("/events"),
  );
  it.each(ownerReads.map((op) => [op.label, op] as const))("its owner reads %s", async (_l, op) => {
    const url = fill(op, (p) => (p.uuid ? idFor(op, p.name)! : SAMPLE_PARAM(p.name)));
    const res = await send(op, url, other.accessToken, other);
    expect(res.status, show(res.body)).toBeOneOf([200, 503]);
  });

  it.each(uuidOps.map((op) => [op.label, op] as const))("%s", async (label, op) => {
    if (EXCEPTIONS[label]) return;
    const session = sessionFor(op);
    const missing = op.params
      .filter((p) => p.uuid && idFor(op, p.name) === undefined)
      .map((p) => segmentBefore(op.path, p.name));
    expect(missing, "no row of another user for these segments: seed one or list it").toEqual([]);
    const url = fill(op, (p) => (p.uuid ? idFor(op, p.name)! : SAMPLE_PARAM(p.name)));
    const res = await send(op, url, session.accessToken, session);
    expect(res.status, show(res.body)).toBe(404);
    expect(typeof res.body.detail).toBe("string");
  });
});
