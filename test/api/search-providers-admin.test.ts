import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { decryptSecret } from "../../src/lib/crypto";
import { searchProviderCandidates } from "../../src/modules/discovery/service";
import { type FakeSearch, startFakeSearch } from "../fakes/search";
import { storedProviderKey } from "../support/ai";
import { auditRows as auditRowsOf } from "../support/audit";
import {
  type ApiOptions,
  call,
  expectStatus,
  type Operation,
  registerUser,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;
const BASE = "/api/v1/admin/search-providers";
let search: FakeSearch;

beforeAll(async () => {
  search = await startFakeSearch();
});
afterAll(async () => {
  await search.close();
});

/** Admins of its own per test: the admin budget is 30 requests a minute per admin. */
async function newAdmin() {
  const user = await registerUser(app);
  await queryRows(deps.db, sql`update users set role = 'admin' where id = ${user.userId}`);
  const token = user.accessToken;
  return {
    ...user,
    call: (path: string, options: Parameters<typeof call>[2] = {}) =>
      call(app, path, { token: user.accessToken, ...options }),
    /** A read that must succeed, typed by the OpenAPI document (ADR 0095). */
    get: async (id: string) => {
      const answer = await typed(app).get(ONE, { token, params: { id } });
      expectStatus(answer, 200);
      return answer;
    },
    /** A PATCH that must succeed, typed. */
    patch: async (id: string, json: ProviderPatch) => {
      const answer = await typed(app).patch(ONE, { token, params: { id }, json });
      expectStatus(answer, 200);
      return answer;
    },
  };
}
const ONE = "/api/v1/admin/search-providers/{id}" as const;
type ProviderPatch = NonNullable<ApiOptions<Operation<typeof ONE, "patch">>["json"]>;

const uniqueName = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

async function count() {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from search_providers`,
  );
  return row!.n;
}

const auditRows = (action: string, id: string) => auditRowsOf(deps, action, id);
const storedKey = (id: string) => storedProviderKey(deps, "search_providers", id);

const braveBody = (overrides: Record<string, unknown> = {}) => ({
  name: uniqueName("brave"),
  kind: "brave",
  base_url: "https://api.search.brave.com",
  api_key: "BSA-secret-key-0123456789-WXYZ",
  ...overrides,
});

describe("guards", () => {
  const id = crypto.randomUUID();
  const routes: [string, string, unknown?][] = [
    ["GET", BASE],
    ["POST", BASE, braveBody()],
    ["GET", `${BASE}/${id}`],
    ["PATCH", `${BASE}/${id}`, { enabled: false }],
    ["DELETE", `${BASE}/${id}`],
  ];

  it("answer 403 to a plain user and 401 without a token, writing nothing", async () => {
    const user = await registerUser(app);
    const before = await count();
    for (const [method, path, json] of routes) {
      expect((await call(app, path, { method, json, token: user.accessToken })).status).toBe(403);
      expect((await call(app, path, { method, json })).status).toBe(401);
    }
    expect(await count()).toBe(before);
  });

  it("need the CSRF token when the admin session rides on cookies", async () => {
    const admin = await newAdmin();
    const before = await count();
    const res = await call(app, BASE, {
      json: braveBody(),
      cookies: { access_token: admin.accessToken },
    });
    expect(res.status).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe("admin search providers", () => {
  it("create stores the key encrypted and never returns it, nor its ciphertext", async () => {
    const admin = await newAdmin();
    const input = braveBody();
    const created = await admin.call(BASE, { json: input });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: input.name,
      kind: "brave",
      base_url: input.base_url,
      api_key_set: true,
      api_key_hint: "WXYZ",
      enabled: true,
      timeout_ms: 15_000,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as string;
    const stored = await storedKey(id);
    expect(stored.ciphertext).not.toContain(input.api_key);
    expect(await decryptSecret(deps.keys.encryption, stored.ciphertext!)).toBe(input.api_key);

    const texts = [
      JSON.stringify(created.body),
      JSON.stringify((await admin.get(id)).body),
      JSON.stringify((await admin.call(`${BASE}?size=100`)).body),
    ];
    for (const text of texts) {
      expect(text).toContain(input.name);
      expect(text).not.toContain(input.api_key);
      expect(text).not.toContain(stored.ciphertext!);
      expect(text).not.toContain("ciphertext");
    }
    const [log] = await auditRows("search_provider.create", id);
    expect(log).toMatchObject({ actor_id: admin.userId, target_type: "search_provider" });
    expect(Object.keys(log!.changes).sort()).toEqual([
      "api_key",
      "base_url",
      "enabled",
      "kind",
      "name",
      "timeout_ms",
    ]);
    expect(log!.changes.api_key).toEqual({ before: null, after: "set" });
    expect(JSON.stringify(log)).not.toContain(input.api_key);
    expect(JSON.stringify(log)).not.toContain(stored.ciphertext!);
  });

  it("a created provider is what discovery uses, with its decrypted key", async () => {
    const admin = await newAdmin();
    const created = await admin.call(BASE, {
      json: braveBody({ base_url: search.url, api_key: search.apiKey, timeout_ms: 2000 }),
    });
    expect(created.status).toBe(201);
    const candidates = await searchProviderCandidates(deps);
    expect(candidates.find((c) => c.id === created.body.id)).toMatchObject({
      kind: "brave",
      base_url: search.url,
      timeout_ms: 2000,
    });
    await admin.call(`${BASE}/${created.body.id}`, { method: "PATCH", json: { enabled: false } });
    expect((await searchProviderCandidates(deps)).some((c) => c.id === created.body.id)).toBe(
      false,
    );
  });

  it("PATCH replaces, keeps (absent) or clears (null) the key; a brave one keeps a key", async () => {
    const admin = await newAdmin();
    const created = await admin.call(BASE, {
      json: braveBody({ kind: "searxng", base_url: "https://searx.example.org" }),
    });
    const id = created.body.id as string;

    const rotated = await admin.patch(id, { api_key: "rotated-key-abcdefgh-1234" });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ api_key_set: true, api_key_hint: "1234" });
    expect(JSON.stringify(rotated.body)).not.toContain("rotated-key-abcdefgh-1234");
    const afterRotation = await storedKey(id);
    expect(await decryptSecret(deps.keys.encryption, afterRotation.ciphertext!)).toBe(
      "rotated-key-abcdefgh-1234",
    );

    const kept = await admin.patch(id, { timeout_ms: 5000 });
    expect(kept.body).toMatchObject({ api_key_set: true, api_key_hint: "1234", timeout_ms: 5000 });
    expect(await storedKey(id)).toEqual(afterRotation);

    const cleared = await admin.patch(id, { api_key: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ api_key_set: false, api_key_hint: null });
    expect(await storedKey(id)).toEqual({ ciphertext: null, hint: null });

    const logs = await auditRows("search_provider.update", id);
    expect(logs.map((l) => l.changes)).toEqual([
      { api_key: { before: "set", after: "replaced" } },
      { timeout_ms: { before: 15_000, after: 5000 } },
      { api_key: { before: "set", after: "unset" } },
    ]);
    expect(JSON.stringify(logs)).not.toContain("rotated-key");

    const brave = await admin.call(BASE, { json: braveBody() });
    const braveClear = await admin.call(`${BASE}/${brave.body.id}`, {
      method: "PATCH",
      json: { api_key: null },
    });
    expect(braveClear.status).toBe(422);
    expect((await storedKey(brave.body.id)).hint).toBe("WXYZ");
    expect(await auditRows("search_provider.update", brave.body.id)).toHaveLength(0);
  });

  it("answers 409 to a duplicate name, on create and on rename", async () => {
    const admin = await newAdmin();
    const first = await admin.call(BASE, { json: braveBody() });
    const second = await admin.call(BASE, { json: braveBody() });
    const before = await count();
    const duplicate = await admin.call(BASE, { json: braveBody({ name: first.body.name }) });
    expect(duplicate.status).toBe(409);
    expect(await count()).toBe(before);
    const rename = await admin.call(`${BASE}/${second.body.id}`, {
      method: "PATCH",
      json: { name: first.body.name },
    });
    expect(rename.status).toBe(409);
    expect((await admin.get(second.body.id)).body.name).toBe(second.body.name);
  });

  it("answers 422 to a bad URL, name, kind, key or timeout, writing nothing", async () => {
    const admin = await newAdmin();
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ base_url: "ftp://search.example.com" }, "base_url"],
      [{ base_url: "https://user:pass@search.example.com" }, "base_url"],
      [{ base_url: "not a url" }, "base_url"],
      [{ name: "Brave" }, "name"],
      [{ name: "-leading" }, "name"],
      [{ name: "a".repeat(41) }, "name"],
      [{ kind: "google" }, "kind"],
      [{ kind: "brave", api_key: undefined }, "api_key"],
      [{ api_key: "short" }, "api_key"],
      [{ timeout_ms: 999 }, "timeout_ms"],
      [{ timeout_ms: 120_001 }, "timeout_ms"],
      [{ api_key_ciphertext: "x" }, ""],
    ];
    for (const [overrides, field] of cases) {
      const res = await admin.call(BASE, { json: braveBody(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      if (field) {
        expect(res.body.errors.map((e: { loc: string[] }) => e.loc.slice(1))).toContainEqual([
          field,
        ]);
      }
    }
    expect(await count()).toBe(before);
    // A searxng instance may run without a key.
    const searx = await admin.call(BASE, {
      json: braveBody({
        kind: "searxng",
        api_key: undefined,
        base_url: "http://searx.example.net:8080",
      }),
    });
    expect(searx.status).toBe(201);
    expect(searx.body).toMatchObject({ api_key_set: false, api_key_hint: null });
  });

  it("refuses a private, loopback or metadata base_url unless the operator listed it", async () => {
    const admin = await newAdmin();
    // Built without the test default (127.0.0.1 listed for the fakes): the shipped default.
    const strict = await ctx.makeApp({}, { OUTBOUND_ALLOW_HOSTS: "" });
    const before = await count();
    const created = await admin.call(BASE, { json: braveBody() });
    const bad = [
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]:8080/",
      "http://0.0.0.0:8080/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://localhost:8888/",
      "http://10.0.0.5:8080/",
      search.url,
    ];
    for (const base_url of bad) {
      for (const [method, path, json] of [
        ["POST", BASE, braveBody({ base_url })],
        ["PATCH", `${BASE}/${created.body.id}`, { base_url, api_key: "new-key-0123456789" }],
      ] as const) {
        const res = await call(strict, path, { method, json, token: admin.accessToken });
        expect(res.status, `${method} ${base_url}`).toBe(422);
        expect(res.body.errors).toEqual([
          expect.objectContaining({ loc: ["body", "base_url"], type: "outbound_url" }),
        ]);
      }
    }
    expect(await count()).toBe(before + 1);
    expect((await admin.get(created.body.id)).body.base_url).toBe("https://api.search.brave.com");
    // An operator-listed host:port is accepted (a SearXNG on the private network).
    const listed = await ctx.makeApp({}, { OUTBOUND_ALLOW_HOSTS: "10.0.0.5:8080" });
    const ok = await call(listed, BASE, {
      json: braveBody({ kind: "searxng", api_key: undefined, base_url: "http://10.0.0.5:8080" }),
      token: admin.accessToken,
    });
    expect(ok.status).toBe(201);
  });

  it("binds a key to its base_url: a new URL needs the key in the same PATCH", async () => {
    const admin = await newAdmin();
    const created = await admin.call(BASE, { json: braveBody() });
    const path = `${BASE}/${created.body.id}`;
    const stored = await storedKey(created.body.id);

    const moved = await admin.call(path, {
      method: "PATCH",
      json: { base_url: "https://collector.example.net" },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errors).toEqual([
      expect.objectContaining({ loc: ["body", "api_key"], type: "key_rebind" }),
    ]);
    expect((await admin.get(created.body.id)).body.base_url).toBe("https://api.search.brave.com");
    expect(await storedKey(created.body.id)).toEqual(stored);
    expect(await auditRows("search_provider.update", created.body.id)).toHaveLength(0);

    // The same URL again, or a new one with its key, is fine.
    const same = await admin.patch(created.body.id, {
      base_url: "https://api.search.brave.com",
      timeout_ms: 4000,
    });
    expect(same.status).toBe(200);
    const rekeyed = await admin.patch(created.body.id, {
      base_url: "https://brave.example.net",
      api_key: "another-key-0123456789",
    });
    expect(rekeyed.status).toBe(200);
    expect(rekeyed.body).toMatchObject({
      base_url: "https://brave.example.net",
      api_key_hint: "6789",
    });

    // Without a stored key there is nothing to leak: a keyless SearXNG moves freely.
    const searx = await admin.call(BASE, {
      json: braveBody({
        kind: "searxng",
        api_key: undefined,
        base_url: "https://searx.example.org",
      }),
    });
    const movedSearx = await admin.call(`${BASE}/${searx.body.id}`, {
      method: "PATCH",
      json: { base_url: "https://searx.example.net" },
    });
    expect(movedSearx.status).toBe(200);
  });

  it("PATCH validates too: no kind change, empty body, 404 and 422 ids", async () => {
    const admin = await newAdmin();
    const created = await admin.call(BASE, { json: braveBody() });
    const path = `${BASE}/${created.body.id}`;
    for (const json of [{ kind: "searxng" }, {}, { base_url: "file:///etc" }, { enabled: "yes" }]) {
      const res = await admin.call(path, { method: "PATCH", json });
      expect(res.status, JSON.stringify(json)).toBe(422);
    }
    const missing = `${BASE}/${crypto.randomUUID()}`;
    expect((await admin.call(missing)).status).toBe(404);
    expect((await admin.call(missing, { method: "PATCH", json: { enabled: false } })).status).toBe(
      404,
    );
    expect((await admin.call(missing, { method: "PATCH", json: { api_key: null } })).status).toBe(
      404,
    );
    expect((await admin.call(missing, { method: "DELETE" })).status).toBe(404);
    expect((await admin.call(`${BASE}/not-a-uuid`)).status).toBe(422);
  });

  it("lists by name with kind and enabled filters; DELETE removes with an audit row", async () => {
    const admin = await newAdmin();
    await queryRows(deps.db, sql`delete from search_providers`);
    const a = await admin.call(BASE, { json: braveBody({ name: "a-brave" }) });
    const b = await admin.call(BASE, {
      json: braveBody({ name: "b-searx", kind: "searxng", enabled: false }),
    });
    const c = await admin.call(BASE, { json: braveBody({ name: "c-brave" }) });
    const all = await admin.call(`${BASE}?size=2`);
    expect(all.body).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(all.body.items.map((i: { name: string }) => i.name)).toEqual(["a-brave", "b-searx"]);
    const braves = await admin.call(`${BASE}?kind=brave`);
    expect(braves.body.items.map((i: { name: string }) => i.name)).toEqual(["a-brave", "c-brave"]);
    const disabled = await admin.call(`${BASE}?enabled=false`);
    expect(disabled.body.items.map((i: { id: string }) => i.id)).toEqual([b.body.id]);
    expect((await admin.call(`${BASE}?kind=bing`)).status).toBe(422);

    const del = await admin.call(`${BASE}/${a.body.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await admin.call(`${BASE}/${a.body.id}`)).status).toBe(404);
    expect(await auditRows("search_provider.delete", a.body.id)).toHaveLength(1);
    expect(await count()).toBe(2);
    expect(c.status).toBe(201);
  });
});
