import { describe, expect, it } from "vitest";
import type { RateLimiter } from "../../src/providers/ratelimit/types";
import { call, randomEmail, registerUser, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { openApiSampler, type Schema } from "../support/openapi-sample";
import { joinOrg } from "../support/orgs";
import { registerBusinessUser, setPlan } from "../support/plans";

/**
 * Walks the served OpenAPI document and drives every operation with hostile input: NUL, huge
 * strings, integers past int4 and int8, non-finite numbers, wrong types and prototype keys.
 * Nothing may answer >= 500 (but a 503 with a detail: providers are unconfigured here), and
 * every 4xx carries a string `detail`. Fixed mutations, no randomness: a failure reproduces.
 */

// Budgets would turn most of the walk into 429s; they have their own suites.
const unlimited: RateLimiter = {
  consume: async (rule) => ({
    allowed: true,
    limit: rule.points,
    remaining: rule.points,
    resetMs: 0,
  }),
};
const ctx = await createTestContext({ runtime: { limiter: unlimited } });
const { app } = ctx;

const doc = (await call(app, "/api/v1/openapi.json")).body as Schema;

const { resolve, sample } = openApiSampler(doc, {
  text: "fuzz",
  uuid: () => "00000000-0000-4000-8000-000000000000",
});

const RAW = Symbol("raw JSON text");
type Hostile = unknown | { [RAW]: string };

/** Values that break a careless parser, cast or SQL parameter. */
const HOSTILE: Hostile[] = [
  "\u0000",
  "x".repeat(100_000),
  2 ** 31,
  2 ** 63,
  -(2 ** 31) - 1,
  { [RAW]: "1e309" },
  -1,
  0.5,
  [],
  [1, "a"],
  {},
  { __proto__: null, constructor: { prototype: { polluted: true } } },
  true,
  null,
  "__proto__",
  "constructor",
  "",
];
const HOSTILE_QUERY = [
  "%00",
  "x".repeat(100_000),
  "2147483648",
  "9223372036854775808",
  "-2147483649",
  "1e309",
  "NaN",
  "-1",
  "__proto__",
  "constructor",
  "",
];
const HOSTILE_PATH = ["__proto__", "constructor", "toString", "x".repeat(10_000), "-1", "1e309"];

/** JSON text with the raw-number placeholders spliced in (1e309 is not a JS number). */
function jsonText(value: unknown): string {
  const holes: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && RAW in v) {
      holes.push(v[RAW]);
      return `@@raw${holes.length - 1}@@`;
    }
    return v;
  });
  return text.replace(/"@@raw(\d+)@@"/g, (_m, i) => holes[Number(i)]!);
}

/** A field's own limits: each valid alone, but sums of them must still fit their columns. */
function edges(input: Schema | undefined): unknown[] {
  const schema = resolve(input);
  const variants: Schema[] = (schema.anyOf ?? schema.oneOf ?? [schema]).map((v: Schema) =>
    resolve(v),
  );
  return variants.flatMap((v) =>
    v.type === "integer" || v.type === "number"
      ? [v.maximum, v.minimum].filter((n) => typeof n === "number")
      : [],
  );
}

function bodies(schema: Schema | undefined): string[] {
  const base = sample(schema);
  const out = [jsonText(base), "[]", '"text"', "1e309", "null", "{", '{"__proto__":{"x":1}}'];
  out.push('{"constructor":{"prototype":{"x":1}},"__proto__":[]}');
  if (base && typeof base === "object" && !Array.isArray(base)) {
    const properties = resolve(schema).properties ?? {};
    for (const key of Object.keys(base)) {
      for (const bad of [...HOSTILE, ...edges(properties[key])]) {
        out.push(jsonText({ ...base, [key]: bad }));
        // Alone too: a PATCH of one field reaches code a full body stops short of.
        out.push(jsonText({ [key]: bad }));
      }
      // One level down: each field of a nested object, or of an array's first object (items).
      const inner = resolve(properties[key]);
      const nested = inner.type === "array" ? resolve(inner.items) : inner;
      const value = base[key as keyof typeof base] as unknown;
      const first = Array.isArray(value) ? value[0] : value;
      if (!first || typeof first !== "object" || Array.isArray(first)) continue;
      for (const field of Object.keys(first)) {
        for (const bad of [...HOSTILE, ...edges(nested.properties?.[field])]) {
          const changed = { ...first, [field]: bad };
          out.push(jsonText({ ...base, [key]: Array.isArray(value) ? [changed] : changed }));
        }
      }
    }
  }
  return out;
}

interface Operation {
  method: string;
  path: string;
  query: Schema[];
  pathParams: string[];
  body: Schema | undefined;
  admin: boolean;
}

const operations: Operation[] = [];
for (const [path, item] of Object.entries<Schema>(doc.paths)) {
  for (const [method, op] of Object.entries<Schema>(item)) {
    if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
    const params: Schema[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) =>
      resolve(p),
    );
    const jsonBody = op.requestBody?.content?.["application/json"]?.schema;
    operations.push({
      method: method.toUpperCase(),
      path,
      query: params.filter((p) => p.in === "query"),
      pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
      body: jsonBody,
      admin: path.startsWith("/api/v1/admin"),
    });
  }
}
// Operations that end the session (logout, delete account, password change) go last.
const endsSession = (op: Operation) =>
  /\/(logout|account|password|sessions|delete)/.test(op.path) && op.method !== "GET";
operations.sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)));

let user: Session;
let admin: Session;
const sessionAlive = async (s: Session | undefined) =>
  s !== undefined && (await call(app, "/api/v1/auth/me", { token: s.accessToken })).status === 200;

/** Real rows, so that `{id}` also reaches the code behind a found row (by /api/v1/<segment>). */
const realIds: Record<string, string> = {};
/** A member of the user's organisation, so /org/members/{user_id} reaches a real member. */
let member: Session | undefined;
async function seedRows() {
  const as = { token: user.accessToken, csrf: user.csrfToken };
  member = await registerUser(app);
  await joinOrg(ctx.database, user, member, "member");
  const invitation = await call(app, "/api/v1/org/invitations", {
    ...as,
    json: { email: randomEmail(), role: "member" },
  });
  expect(invitation.status).toBe(201);
  // /api/v1/org/invitations/{id}: the organisation's invitations are its only `{id}`.
  realIds.org = invitation.body.id;
  const customer = await call(app, "/api/v1/customers", { ...as, json: { company: "Fuzz" } });
  const product = await call(app, "/api/v1/products", {
    ...as,
    json: { name: "Fuzz", price: 2e9 },
  });
  const quotation = await call(app, "/api/v1/quotations", {
    ...as,
    json: { currency: "USD", items: [{ name: "Fuzz", quantity: 1, unit_price: 2e9 }] },
  });
  realIds.customers = customer.body.id;
  realIds.products = product.body.id;
  realIds.quotations = quotation.body.id;
}

interface Finding {
  op: string;
  request: string;
  status: number;
  body: string;
}
const findings: Finding[] = [];
const statuses = new Map<number, number>();

async function send(op: Operation, url: string, body?: string) {
  const session = op.admin ? admin : user;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${session.accessToken}`,
    "X-CSRF-Token": session.csrfToken,
    "X-Forwarded-For": "198.51.100.7",
  };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await app.request(url, { method: op.method, headers, body });
  const text = await res.text();
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const record = (why: string) =>
    findings.push({
      op: `${op.method} ${op.path}`,
      request: `${url.slice(0, 200)} ${body?.slice(0, 200) ?? ""}`,
      status: res.status,
      body: `${why}: ${text.slice(0, 200)}`,
    });
  if (res.status < 400) return;
  let detail: unknown;
  try {
    detail = JSON.parse(text).detail;
  } catch {
    detail = undefined;
  }
  if (res.status >= 500 && !(res.status === 503 && typeof detail === "string")) record("5xx");
  else if (typeof detail !== "string") record("no detail");
}

function fill(op: Operation, value: (name: string) => string) {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name));
}

async function drive(op: Operation) {
  if (!(await sessionAlive(user))) user = await registerBusinessUser(app, ctx.deps);
  if (op.admin && !(await sessionAlive(admin))) admin = await registerAdmin(ctx);
  const segment = op.path.split("/")[3] ?? "";
  const plain = fill(op, (name) =>
    name === "id" && realIds[segment] ? realIds[segment] : sampleParam(name, op),
  );
  const baseQuery = new URLSearchParams();
  for (const q of op.query) {
    if (q.required) baseQuery.set(q.name, String(sample(q.schema)));
  }
  const withQuery = (q: URLSearchParams) => (q.size > 0 ? `${plain}?${q}` : plain);

  for (const name of op.pathParams) {
    for (const bad of HOSTILE_PATH) {
      const url = fill(op, (n) => (n === name ? encodeURIComponent(bad) : sampleParam(n, op)));
      await send(op, url, op.body ? jsonText(sample(op.body)) : undefined);
    }
  }
  for (const q of op.query) {
    for (const bad of HOSTILE_QUERY) {
      const query = new URLSearchParams(baseQuery);
      query.set(q.name, bad);
      await send(op, `${plain}?${query.toString().replace("%2500", "%00")}`);
    }
    const repeated = new URLSearchParams(baseQuery);
    repeated.append(q.name, "a");
    repeated.append(q.name, "b");
    await send(op, `${plain}?${repeated}`);
  }
  if (op.body) {
    for (const body of bodies(op.body)) await send(op, withQuery(baseQuery), body);
  } else if (op.method !== "GET" && op.method !== "DELETE") {
    await send(op, withQuery(baseQuery), '{"__proto__":{"x":1}}');
  }
}

function sampleParam(name: string, op?: Operation) {
  if (name === "key") return "credits.costs";
  // A real member, so role and credit-limit changes reach their checks and columns.
  if (name === "user_id" && member && op?.path.startsWith("/api/v1/org/")) return member.userId;
  // A real account, so admin credit adjustments reach the balance arithmetic.
  if (name === "user_id") return user.userId;
  return "00000000-0000-4000-8000-000000000000";
}

describe("fuzzing every operation of the OpenAPI document", () => {
  it("serves a document with the operations to walk", () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.some((op) => op.admin)).toBe(true);
  });

  it("answers malformed URLs, methods and content types with a detail", async () => {
    user = await registerBusinessUser(app, ctx.deps);
    const op = (method: string, path: string): Operation => ({
      method,
      path,
      query: [],
      pathParams: [],
      body: undefined,
      admin: false,
    });
    await send(op("GET", "/api/v1/customers/%E0%A4%A"), "/api/v1/customers/%E0%A4%A");
    await send(op("GET", "/api/v1/customers"), "/api/v1/customers?q=%E0%A4%A&size=%ZZ");
    await send(op("PROPFIND", "/api/v1/customers"), "/api/v1/customers");
    await send(op("GET", "/api/v1/nope"), "/api/v1/nope/%00/..%2f..%2fetc");
    await send(op("GET", "/api/v1/customers"), `/api/v1/customers?${"a=1&".repeat(5000)}`);
    const post = op("POST", "/api/v1/customers");
    for (const type of ["text/plain", "application/json; charset=utf-16", "multipart/form-data"]) {
      const res = await app.request("/api/v1/customers", {
        method: "POST",
        headers: { Authorization: `Bearer ${user.accessToken}`, "Content-Type": type },
        body: '{"company":"Acme"}',
      });
      expect(res.status, type).toBeLessThan(500);
    }
    await send(post, "/api/v1/customers", "\ufeff{}");
    expect(findings).toEqual([]);
  });

  it("answers hostile input with 4xx and a detail, never a 500", { timeout: 300_000 }, async () => {
    // The business plan has every feature, so no route stops at its plan gate.
    user = await registerBusinessUser(app, ctx.deps);
    admin = await registerAdmin(ctx);
    await setPlan(ctx.deps, admin.userId, "business");
    await seedRows();
    for (const op of operations) await drive(op);
    if (process.env.FUZZ_STATS) console.log(operations.length, [...statuses].sort());
    expect(findings).toEqual([]);
  });
});
