import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { decryptSecret } from "../../src/lib/crypto";
import { generateWithLlm } from "../../src/providers/llm/openai-compatible";
import { addAiProvider, clearAiProviders, storedProviderKey } from "../support/ai";
import { auditRows as auditRowsOf } from "../support/audit";
import {
  type ApiOptions,
  call,
  expectStatus,
  type Operation,
  registerUser,
  api as typed,
} from "../support/client";
import { createTestContext, PRODUCTION_ENV } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;

/**
 * The admin budget is 30 requests a minute per admin, so each test makes admins of its own:
 * a registered user promoted in the database (the guard reads the role from there).
 */
async function newAdmin(target = app) {
  const user = await registerUser(app);
  await queryRows(deps.db, sql`update users set role = 'admin' where id = ${user.userId}`);
  const token = user.accessToken;
  return {
    ...user,
    call: (path: string, options: Parameters<typeof call>[2] = {}) =>
      call(target, path, { token: user.accessToken, ...options }),
    /** The provider list, typed by the OpenAPI document (ADR 0095); asserts 200. */
    providers: async (query: ProvidersQuery = {}) => {
      const answer = await typed(target).get(PROVIDERS, { token, query });
      expectStatus(answer, 200);
      return answer;
    },
    /** The FAQ list, typed; asserts 200. */
    faqs: async (query: FaqQuery = {}) => {
      const answer = await typed(target).get("/api/v1/admin/faq", { token, query });
      expectStatus(answer, 200);
      return answer;
    },
  };
}
type ProvidersQuery = NonNullable<ApiOptions<Operation<typeof PROVIDERS, "get">>["query"]>;
type FaqQuery = NonNullable<ApiOptions<Operation<"/api/v1/admin/faq", "get">>["query"]>;

const uniqueName = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

async function count(table: "ai_providers" | "translation_quotas" | "faqs") {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return row!.n;
}

const auditRows = (action: string, id: string) => auditRowsOf(deps, action, id);
const PROVIDERS = "/api/v1/admin/ai-providers" as const;

async function startServerOn127(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get hits() {
      return hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
const storedKey = (id: string) => storedProviderKey(deps, "ai_providers", id);

const llmBody = (overrides: Record<string, unknown> = {}) => ({
  name: uniqueName("llm"),
  kind: "llm",
  base_url: "https://llm.example.com/v1",
  api_key: "sk-secret-key-0123456789-WXYZ",
  models: ["gpt-x", "gpt-y"],
  ...overrides,
});

describe("guards", () => {
  const id = crypto.randomUUID();
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/v1/admin/ai-providers"],
    ["POST", "/api/v1/admin/ai-providers", llmBody()],
    ["GET", `/api/v1/admin/ai-providers/${id}`],
    ["PATCH", `/api/v1/admin/ai-providers/${id}`, { enabled: false }],
    ["DELETE", `/api/v1/admin/ai-providers/${id}`],
    ["GET", "/api/v1/admin/ai-routing"],
    ["PUT", "/api/v1/admin/ai-routing", { chat: [] }],
    ["GET", "/api/v1/admin/translation-quotas"],
    ["POST", "/api/v1/admin/translation-quotas", { provider_id: id, period: "day", char_limit: 5 }],
    ["GET", `/api/v1/admin/translation-quotas/${id}`],
    ["PATCH", `/api/v1/admin/translation-quotas/${id}`, { char_limit: 5 }],
    ["DELETE", `/api/v1/admin/translation-quotas/${id}`],
    ["POST", `/api/v1/admin/translation-quotas/${id}/reset`],
    ["GET", "/api/v1/admin/faq"],
    ["POST", "/api/v1/admin/faq", { question: "q", answer: "a" }],
    ["GET", `/api/v1/admin/faq/${id}`],
    ["PATCH", `/api/v1/admin/faq/${id}`, { enabled: false }],
    ["DELETE", `/api/v1/admin/faq/${id}`],
  ];

  it("answer 403 to a plain user and 401 without a token, writing nothing", async () => {
    const user = await registerUser(app);
    const before = await Promise.all([
      count("ai_providers"),
      count("translation_quotas"),
      count("faqs"),
    ]);
    for (const [method, path, json] of routes) {
      const asUser = await call(app, path, { method, json, token: user.accessToken });
      expect(asUser.status, `${method} ${path}`).toBe(403);
      const anonymous = await call(app, path, { method, json });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    expect(
      await Promise.all([count("ai_providers"), count("translation_quotas"), count("faqs")]),
    ).toEqual(before);
  });

  it("need the CSRF token when the admin session rides on cookies", async () => {
    const admin = await newAdmin();
    const before = await count("faqs");
    const res = await call(app, "/api/v1/admin/faq", {
      json: { question: "q", answer: "a" },
      cookies: { access_token: admin.accessToken },
    });
    expect(res.status).toBe(403);
    expect(await count("faqs")).toBe(before);
  });
});

describe("admin AI providers", () => {
  it("create stores the key encrypted and never returns it, nor its ciphertext", async () => {
    const admin = await newAdmin();
    const input = llmBody();
    const created = await admin.call("/api/v1/admin/ai-providers", { json: input });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: input.name,
      kind: "llm",
      base_url: input.base_url,
      api_key_set: true,
      api_key_hint: "WXYZ",
      models: ["gpt-x", "gpt-y"],
      enabled: true,
      timeout_ms: 30_000,
    });
    const id = created.body.id as string;
    const stored = await storedKey(id);
    expect(stored.ciphertext).not.toContain(input.api_key);
    expect(await decryptSecret(deps.keys.encryption, stored.ciphertext!)).toBe(input.api_key);

    const texts = [
      JSON.stringify(created.body),
      JSON.stringify((await admin.call(`/api/v1/admin/ai-providers/${id}`)).body),
      JSON.stringify((await admin.providers({ size: 100 })).body),
    ];
    for (const text of texts) {
      expect(text).toContain(input.name);
      expect(text).not.toContain(input.api_key);
      expect(text).not.toContain(stored.ciphertext!);
      expect(text).not.toContain("ciphertext");
    }

    const [log] = await auditRows("ai_provider.create", id);
    expect(log).toMatchObject({ actor_id: admin.userId, target_type: "ai_provider" });
    expect(log!.changes).toEqual({
      api_key: { before: null, after: "set" },
      base_url: { before: null, after: input.base_url },
      enabled: { before: null, after: true },
      kind: { before: null, after: "llm" },
      models: { before: null, after: ["gpt-x", "gpt-y"] },
      name: { before: null, after: input.name },
      timeout_ms: { before: null, after: 30_000 },
    });
    expect(JSON.stringify(log)).not.toContain(input.api_key);
    expect(JSON.stringify(log)).not.toContain(stored.ciphertext!);
  });

  it("PATCH replaces, keeps (absent) or clears (null) the key", async () => {
    const admin = await newAdmin();
    const created = await admin.call("/api/v1/admin/ai-providers", { json: llmBody() });
    const id = created.body.id as string;
    const path = `/api/v1/admin/ai-providers/${id}`;

    const rotated = await admin.call(path, {
      method: "PATCH",
      json: { api_key: "sk-rotated-key-abcdefgh-1234" },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ api_key_set: true, api_key_hint: "1234" });
    expect(JSON.stringify(rotated.body)).not.toContain("sk-rotated-key-abcdefgh-1234");
    const afterRotation = await storedKey(id);
    expect(await decryptSecret(deps.keys.encryption, afterRotation.ciphertext!)).toBe(
      "sk-rotated-key-abcdefgh-1234",
    );

    const kept = await admin.call(path, { method: "PATCH", json: { timeout_ms: 5000 } });
    expect(kept.body).toMatchObject({ api_key_set: true, api_key_hint: "1234", timeout_ms: 5000 });
    expect(await storedKey(id)).toEqual(afterRotation);

    const cleared = await admin.call(path, { method: "PATCH", json: { api_key: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ api_key_set: false, api_key_hint: null });
    expect(await storedKey(id)).toEqual({ ciphertext: null, hint: null });

    const logs = await auditRows("ai_provider.update", id);
    expect(logs.map((l) => l.changes)).toEqual([
      { api_key: { before: "set", after: "replaced" } },
      { timeout_ms: { before: 30_000, after: 5000 } },
      { api_key: { before: "set", after: "unset" } },
    ]);
    expect(JSON.stringify(logs)).not.toContain("sk-rotated");
    expect(JSON.stringify(logs)).not.toContain(afterRotation.ciphertext!);
  });

  it("answers 409 to a duplicate name, on create and on rename", async () => {
    const admin = await newAdmin();
    const first = await admin.call("/api/v1/admin/ai-providers", { json: llmBody() });
    const second = await admin.call("/api/v1/admin/ai-providers", { json: llmBody() });
    const before = await count("ai_providers");
    const duplicate = await admin.call("/api/v1/admin/ai-providers", {
      json: llmBody({ name: first.body.name }),
    });
    expect(duplicate.status).toBe(409);
    expect(await count("ai_providers")).toBe(before);
    const rename = await admin.call(`/api/v1/admin/ai-providers/${second.body.id}`, {
      method: "PATCH",
      json: { name: first.body.name },
    });
    expect(rename.status).toBe(409);
    expect((await admin.call(`/api/v1/admin/ai-providers/${second.body.id}`)).body.name).toBe(
      second.body.name,
    );
  });

  it("answers 422 to a bad URL, name, kind, models or timeout, writing nothing", async () => {
    const admin = await newAdmin();
    const before = await count("ai_providers");
    const cases: [Record<string, unknown>, string][] = [
      [{ base_url: "ftp://llm.example.com" }, "base_url"],
      [{ base_url: "https://user:pass@llm.example.com/v1" }, "base_url"],
      [{ base_url: "not a url" }, "base_url"],
      [{ name: "OpenAI" }, "name"],
      [{ name: "-leading" }, "name"],
      [{ name: "a".repeat(41) }, "name"],
      [{ name: "has space" }, "name"],
      [{ kind: "search" }, "kind"],
      [{ models: [] }, "models"],
      [{ models: ["a", "a"] }, "models"],
      [{ models: Array.from({ length: 51 }, (_, i) => `m${i}`) }, "models"],
      [{ timeout_ms: 999 }, "timeout_ms"],
      [{ timeout_ms: 300_001 }, "timeout_ms"],
      [{ api_key: "short" }, "api_key"],
      [{ api_key_ciphertext: "x" }, ""],
    ];
    for (const [overrides, field] of cases) {
      const res = await admin.call("/api/v1/admin/ai-providers", { json: llmBody(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      if (field) {
        // Schema errors carry the validator's target ("json") first.
        expect(res.body.errors.map((e: { loc: string[] }) => e.loc.slice(1))).toContainEqual([
          field,
        ]);
      }
    }
    expect(await count("ai_providers")).toBe(before);
    // An mt provider needs no models.
    const mt = await admin.call("/api/v1/admin/ai-providers", {
      json: llmBody({ kind: "mt", models: [], base_url: "https://api.deepl.com" }),
    });
    expect(mt.status).toBe(201);
    expect(mt.body.models).toEqual([]);
  });

  it("refuses a private, loopback or metadata base_url unless the operator listed it", async () => {
    const admin = await newAdmin();
    // Built without the test default (127.0.0.1 listed for the fakes): the shipped default.
    const strict = await ctx.makeApp({}, { OUTBOUND_ALLOW_HOSTS: "" });
    const created = await admin.call(PROVIDERS, { json: llmBody() });
    const before = await count("ai_providers");
    for (const base_url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]:8000/v1",
      "http://0.0.0.0:11434/v1",
      "http://2130706433/v1",
      "http://0x7f.1/v1",
      "http://localhost:11434/v1",
      "http://127.0.0.1:8000/v1",
      "http://192.168.1.20:8000/v1",
    ]) {
      for (const [method, path, json] of [
        ["POST", PROVIDERS, llmBody({ base_url })],
        ["PATCH", `${PROVIDERS}/${created.body.id}`, { base_url, api_key: "sk-new-0123456789" }],
      ] as const) {
        const res = await call(strict, path, { method, json, token: admin.accessToken });
        expect(res.status, `${method} ${base_url}`).toBe(422);
        expect(res.body.errors).toEqual([
          expect.objectContaining({ loc: ["body", "base_url"], type: "outbound_url" }),
        ]);
      }
    }
    expect(await count("ai_providers")).toBe(before);
    expect((await admin.call(`${PROVIDERS}/${created.body.id}`)).body.base_url).toBe(
      "https://llm.example.com/v1",
    );
    // A private deployment lists its local model servers (vLLM, Ollama) and may use them.
    const listed = await ctx.makeApp(
      {},
      { OUTBOUND_ALLOW_HOSTS: "192.168.1.20:8000,localhost:11434" },
    );
    for (const base_url of ["http://192.168.1.20:8000/v1", "http://localhost:11434/v1"]) {
      const res = await call(listed, PROVIDERS, {
        json: llmBody({ base_url }),
        token: admin.accessToken,
      });
      expect(res.status, base_url).toBe(201);
    }
  });

  it("requires https in production, except to a host the operator listed", async () => {
    const admin = await newAdmin();
    const production = await ctx.makeApp(
      {},
      { ...PRODUCTION_ENV, OUTBOUND_ALLOW_HOSTS: "10.0.0.5:8000" },
    );
    const post = (base_url: string) =>
      call(production, PROVIDERS, { json: llmBody({ base_url }), token: admin.accessToken });
    const plain = await post("http://llm.example.com/v1");
    expect(plain.status).toBe(422);
    expect(plain.body.errors).toEqual([
      expect.objectContaining({
        loc: ["body", "base_url"],
        msg: "Must be an https URL in production",
      }),
    ]);
    expect((await post("https://llm.example.com/v1")).status).toBe(201);
    expect((await post("http://10.0.0.5:8000/v1")).status).toBe(201);
  });

  it("binds a key to its base_url: a new URL needs the key in the same PATCH", async () => {
    const admin = await newAdmin();
    const created = await admin.call(PROVIDERS, { json: llmBody() });
    const path = `${PROVIDERS}/${created.body.id}`;
    const stored = await storedKey(created.body.id);

    const moved = await admin.call(path, {
      method: "PATCH",
      json: { base_url: "https://collector.example.net/v1" },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errors).toEqual([
      expect.objectContaining({ loc: ["body", "api_key"], type: "key_rebind" }),
    ]);
    expect((await admin.call(path)).body.base_url).toBe("https://llm.example.com/v1");
    expect(await storedKey(created.body.id)).toEqual(stored);
    expect(await auditRows("ai_provider.update", created.body.id)).toHaveLength(0);

    // Both failures at once are both named.
    const both = await admin.call(path, {
      method: "PATCH",
      json: { base_url: "https://collector.example.net/v1", models: [] },
    });
    expect(both.status).toBe(422);
    expect(both.body.errors.map((e: { loc: string[] }) => e.loc[1]).sort()).toEqual([
      "api_key",
      "models",
    ]);

    expect(
      (
        await admin.call(path, {
          method: "PATCH",
          json: { base_url: "https://llm.example.com/v1", enabled: false },
        })
      ).status,
    ).toBe(200);
    const rekeyed = await admin.call(path, {
      method: "PATCH",
      json: { base_url: "https://llm2.example.com/v1", api_key: "sk-other-0123456789-ABCD" },
    });
    expect(rekeyed.status).toBe(200);
    expect(rekeyed.body).toMatchObject({
      base_url: "https://llm2.example.com/v1",
      api_key_hint: "ABCD",
    });
    // Clearing the key while moving is also an answer: nothing stored goes anywhere.
    const cleared = await admin.call(path, {
      method: "PATCH",
      json: { base_url: "https://llm3.example.com/v1", api_key: null },
    });
    expect(cleared.status).toBe(200);
  });

  it("an LLM call follows no redirect to another host, with or without the key", async () => {
    const internal = await startServerOn127((_req, res) => res.end("{}"));
    const redirecting = await startServerOn127((_req, res) => {
      res.writeHead(307, { location: `${internal.url}/internal/admin` }).end();
    });
    try {
      const target = {
        provider: "redirecting",
        baseUrl: `${redirecting.url}/v1`,
        apiKey: "sk-secret-0123456789",
        model: "m",
        timeoutMs: 5000,
      };
      await expect(
        generateWithLlm(target, { messages: [{ role: "user", content: "hi" }] }, deps.fetch),
      ).rejects.toThrow();
      expect(redirecting.hits).toBe(1);
      expect(internal.hits).toBe(0);
    } finally {
      await internal.close();
      await redirecting.close();
    }
  });

  it("PATCH validates too: no kind change, no empty models for llm, 404 and 422 ids", async () => {
    const admin = await newAdmin();
    const created = await admin.call("/api/v1/admin/ai-providers", { json: llmBody() });
    const path = `/api/v1/admin/ai-providers/${created.body.id}`;
    for (const json of [{ kind: "mt" }, { models: [] }, {}, { base_url: "file:///etc" }]) {
      const res = await admin.call(path, { method: "PATCH", json });
      expect(res.status, JSON.stringify(json)).toBe(422);
    }
    const unchanged = await admin.call(path);
    expect(unchanged.body).toEqual(created.body);
    const missing = `/api/v1/admin/ai-providers/${crypto.randomUUID()}`;
    expect((await admin.call(missing, { method: "PATCH", json: { models: [] } })).status).toBe(404);
    expect((await admin.call(missing, { method: "PATCH", json: { enabled: false } })).status).toBe(
      404,
    );
    expect((await admin.call(missing)).status).toBe(404);
    expect((await admin.call("/api/v1/admin/ai-providers/not-a-uuid")).status).toBe(422);
    expect(await auditRows("ai_provider.update", created.body.id)).toEqual([]);
  });

  it("lists by name, paged, filtered by kind and enabled", async () => {
    await clearAiProviders(deps);
    const admin = await newAdmin();
    for (const [name, kind, enabled] of [
      ["p-a", "llm", true],
      ["p-b", "mt", true],
      ["p-c", "llm", false],
      ["p-d", "llm", true],
    ] as const) {
      await admin.call("/api/v1/admin/ai-providers", {
        json: llmBody({ name, kind, enabled }),
      });
    }
    const names = (body: { items: { name: string }[] }) => body.items.map((p) => p.name);
    const first = await admin.providers({ size: 2 });
    expect(first.body).toMatchObject({ total: 4, page: 1, size: 2 });
    expect(names(first.body)).toEqual(["p-a", "p-b"]);
    const second = await admin.providers({ size: 2, page: 2 });
    expect(names(second.body)).toEqual(["p-c", "p-d"]);
    const llm = await admin.providers({ kind: "llm", enabled: true });
    expect(names(llm.body)).toEqual(["p-a", "p-d"]);
    expect(llm.body.total).toBe(2);
    const disabled = await admin.providers({ enabled: false });
    expect(names(disabled.body)).toEqual(["p-c"]);
    expect((await admin.call("/api/v1/admin/ai-providers?kind=x")).status).toBe(422);
    expect((await admin.call("/api/v1/admin/ai-providers?size=1001")).status).toBe(422);
  });

  it("DELETE removes the provider with its quotas", async () => {
    const admin = await newAdmin();
    const created = await admin.call("/api/v1/admin/ai-providers", {
      json: llmBody({ kind: "mt" }),
    });
    const id = created.body.id as string;
    const quota = await admin.call("/api/v1/admin/translation-quotas", {
      json: { provider_id: id, period: "day", char_limit: 100 },
    });
    expect(quota.status).toBe(201);
    const res = await admin.call(`/api/v1/admin/ai-providers/${id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect((await admin.call(`/api/v1/admin/ai-providers/${id}`)).status).toBe(404);
    expect((await admin.call(`/api/v1/admin/translation-quotas/${quota.body.id}`)).status).toBe(
      404,
    );
    const [deletedLog] = await auditRows("ai_provider.delete", id);
    expect(deletedLog!.changes).toMatchObject({
      name: { before: created.body.name, after: null },
      api_key: { before: "set", after: null },
    });
    expect(
      (await admin.call(`/api/v1/admin/ai-providers/${id}`, { method: "DELETE" })).status,
    ).toBe(404);
  });
});

describe("admin AI routing", () => {
  it("PUT rejects unknown, mt, malformed and duplicate entries and unknown tasks", async () => {
    await clearAiProviders(deps);
    const admin = await newAdmin();
    await addAiProvider(deps, { name: "alpha", kind: "llm", baseUrl: "http://x", models: ["a1"] });
    await addAiProvider(deps, { name: "deepl", kind: "mt", baseUrl: "http://y" });
    const before = await admin.call("/api/v1/admin/ai-routing");
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ chat: ["alpha", "nobody:gpt"] }, ["chat", 1]],
      [{ translate: ["deepl"] }, ["translate", 0]],
      [{ chat: ["Alpha"] }, ["chat", 0]],
      [{ chat: ["alpha:"] }, ["chat", 0]],
      [{ chat: ["alpha:has space"] }, ["chat", 0]],
      [{ chat: ["alpha:a1", "alpha:a1"] }, ["chat", 1]],
      [{ poetry: ["alpha"] }, ["poetry"]],
      [{ chat: "alpha" }, ["chat"]],
    ];
    for (const [json, loc] of cases) {
      const res = await admin.call("/api/v1/admin/ai-routing", { method: "PUT", json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      // Schema errors carry the validator's target ("json"), provider checks "body".
      expect(res.body.errors.map((e: { loc: unknown[] }) => e.loc.slice(1))).toContainEqual(loc);
    }
    const unknown = await admin.call("/api/v1/admin/ai-routing", {
      method: "PUT",
      json: { chat: ["nobody:gpt"], translate: ["deepl"] },
    });
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({
        loc: ["body", "translate", 0],
        msg: expect.stringContaining("deepl"),
      }),
      expect.objectContaining({
        loc: ["body", "chat", 0],
        msg: expect.stringContaining("nobody:gpt"),
      }),
    ]);
    expect((await admin.call("/api/v1/admin/ai-routing")).body).toEqual(before.body);
  });

  it("PUT stores the routing; GET shows it with what will actually run", async () => {
    await clearAiProviders(deps);
    const admin = await newAdmin();
    await addAiProvider(deps, {
      name: "alpha",
      kind: "llm",
      baseUrl: "http://x",
      models: ["a1", "a2"],
    });
    await addAiProvider(deps, { name: "beta", kind: "llm", baseUrl: "http://x", models: ["b1"] });
    await addAiProvider(deps, {
      name: "off",
      kind: "llm",
      baseUrl: "http://x",
      models: ["o1"],
      enabled: false,
    });
    const put = await admin.call("/api/v1/admin/ai-routing", {
      method: "PUT",
      json: { chat: ["beta", "off", "alpha:a2"], marketing: ["alpha"] },
    });
    expect(put.status).toBe(200);
    const got = await admin.call("/api/v1/admin/ai-routing");
    expect(got.body).toEqual(put.body);
    expect(got.body.routing).toEqual({
      translate: [],
      chat: ["beta", "off", "alpha:a2"],
      marketing: ["alpha"],
      discovery_analysis: [],
      followup_draft: [],
      quotation_from_inquiry: [],
    });
    expect(got.body.effective.chat).toEqual([
      { provider: "beta", model: "b1" },
      { provider: "alpha", model: "a2" },
    ]);
    expect(got.body.effective.marketing).toEqual([{ provider: "alpha", model: "a1" }]);
    // An empty list means every enabled llm provider, by name, with its first model.
    expect(got.body.effective.translate).toEqual([
      { provider: "alpha", model: "a1" },
      { provider: "beta", model: "b1" },
    ]);
    const [log] = await auditRows("ai_routing.update", "ai.routing");
    expect(log).toMatchObject({ actor_id: admin.userId, target_type: "system_config" });
    expect(log!.changes).toEqual({
      chat: { before: [], after: ["beta", "off", "alpha:a2"] },
      marketing: { before: [], after: ["alpha"] },
    });
    const [config] = await queryRows<{ updated_by: string }>(
      deps.db,
      sql`select updated_by from system_config where key = 'ai.routing'`,
    );
    expect(config!.updated_by).toBe(admin.userId);
    await admin.call("/api/v1/admin/ai-routing", { method: "PUT", json: {} });
  });

  it("the generic system-config PUT validates ai.routing with the same schema", async () => {
    const admin = await newAdmin();
    const path = "/api/v1/admin/system-config/ai.routing";
    for (const value of [{ poetry: [] }, { chat: ["x", "x"] }, { chat: ["Bad Entry"] }]) {
      const res = await admin.call(path, { method: "PUT", json: { value } });
      expect(res.status, JSON.stringify(value)).toBe(422);
    }
    const ok = await admin.call(path, { method: "PUT", json: { value: { chat: ["alpha"] } } });
    expect(ok.status).toBe(200);
    expect(ok.body.value).toMatchObject({ chat: ["alpha"], translate: [] });
    await admin.call(path, { method: "PUT", json: { value: {} } });
  });
});

describe("admin translation quotas", () => {
  async function setup() {
    const admin = await newAdmin();
    const provider = await admin.call("/api/v1/admin/ai-providers", {
      json: llmBody({ kind: "mt", models: [] }),
    });
    return { admin, providerId: provider.body.id as string, providerName: provider.body.name };
  }

  it("creates per provider and period, 409 on a duplicate and 422 on an unknown provider", async () => {
    const { admin, providerId, providerName } = await setup();
    const created = await admin.call("/api/v1/admin/translation-quotas", {
      json: { provider_id: providerId, period: "month", char_limit: 1000 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      provider_id: providerId,
      provider_name: providerName,
      tier: "mt",
      period: "month",
      char_limit: 1000,
      chars_used: 0,
      remaining: 1000,
      enabled: true,
    });
    const start = new Date(created.body.period_start);
    expect(start.getUTCDate()).toBe(1);
    expect(start.getUTCHours() + start.getUTCMinutes()).toBe(0);
    const resets = new Date(created.body.resets_at);
    expect(resets.getTime()).toBe(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    expect(await auditRows("translation_quota.create", created.body.id)).toHaveLength(1);

    const before = await count("translation_quotas");
    const duplicate = await admin.call("/api/v1/admin/translation-quotas", {
      json: { provider_id: providerId, period: "month", char_limit: 5 },
    });
    expect(duplicate.status).toBe(409);
    const unknown = await admin.call("/api/v1/admin/translation-quotas", {
      json: { provider_id: crypto.randomUUID(), period: "day", char_limit: 5 },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].loc).toEqual(["body", "provider_id"]);
    for (const json of [
      { provider_id: providerId, period: "week", char_limit: 5 },
      { provider_id: providerId, period: "day", char_limit: -1 },
      { provider_id: providerId, period: "day", char_limit: 1.5 },
      { provider_id: "nope", period: "day", char_limit: 5 },
    ]) {
      const res = await admin.call("/api/v1/admin/translation-quotas", { json });
      expect(res.status, JSON.stringify(json)).toBe(422);
    }
    expect(await count("translation_quotas")).toBe(before);

    // A daily quota beside the monthly one is fine; moving it onto "month" is a conflict.
    const daily = await admin.call("/api/v1/admin/translation-quotas", {
      json: { provider_id: providerId, period: "day", char_limit: 50, enabled: false },
    });
    expect(daily.status).toBe(201);
    const clash = await admin.call(`/api/v1/admin/translation-quotas/${daily.body.id}`, {
      method: "PATCH",
      json: { period: "month" },
    });
    expect(clash.status).toBe(409);
    const list = await admin.call(`/api/v1/admin/translation-quotas?provider_id=${providerId}`);
    expect(list.body.items.map((q: { period: string }) => q.period)).toEqual(["day", "month"]);
    const enabledOnly = await admin.call(
      `/api/v1/admin/translation-quotas?provider_id=${providerId}&enabled=true`,
    );
    expect(enabledOnly.body.items.map((q: { id: string }) => q.id)).toEqual([created.body.id]);
  });

  it("shows an ended period as unused without writing, and reset starts it afresh", async () => {
    const { admin, providerId } = await setup();
    const fixed = new Date();
    const clockApp = await ctx.makeApp({ clock: { now: () => fixed } });
    const at = (path: string, options: Parameters<typeof call>[2] = {}) =>
      call(clockApp, path, { token: admin.accessToken, ...options });
    const dayStart = new Date(
      Date.UTC(fixed.getUTCFullYear(), fixed.getUTCMonth(), fixed.getUTCDate()),
    );
    const created = await at("/api/v1/admin/translation-quotas", {
      json: { provider_id: providerId, period: "day", char_limit: 1000 },
    });
    const id = created.body.id as string;
    expect(created.body.period_start).toBe(dayStart.toISOString());
    expect(created.body.resets_at).toBe(new Date(dayStart.getTime() + 86_400_000).toISOString());

    await queryRows(deps.db, sql`update translation_quotas set chars_used = 700 where id = ${id}`);
    const current = await at(`/api/v1/admin/translation-quotas/${id}`);
    expect(current.body).toMatchObject({ chars_used: 700, remaining: 300 });

    const twoDaysAgo = new Date(dayStart.getTime() - 2 * 86_400_000);
    await queryRows(
      deps.db,
      sql`update translation_quotas set period_start = ${twoDaysAgo.toISOString()}::timestamptz,
            chars_used = 1200 where id = ${id}`,
    );
    const rolled = await at(`/api/v1/admin/translation-quotas/${id}`);
    expect(rolled.body).toMatchObject({
      chars_used: 0,
      remaining: 1000,
      period_start: dayStart.toISOString(),
      resets_at: new Date(dayStart.getTime() + 86_400_000).toISOString(),
    });
    const [raw] = await queryRows<{ chars_used: number; period_start: Date }>(
      deps.db,
      sql`select chars_used, period_start from translation_quotas where id = ${id}`,
    );
    expect(raw!.chars_used).toBe(1200);
    expect(new Date(raw!.period_start).toISOString()).toBe(twoDaysAgo.toISOString());

    // Over the limit in a live period: remaining never goes below zero.
    await queryRows(
      deps.db,
      sql`update translation_quotas set period_start = ${dayStart.toISOString()}::timestamptz
          where id = ${id}`,
    );
    expect((await at(`/api/v1/admin/translation-quotas/${id}`)).body).toMatchObject({
      chars_used: 1200,
      remaining: 0,
    });

    const reset = await at(`/api/v1/admin/translation-quotas/${id}/reset`, { method: "POST" });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ chars_used: 0, remaining: 1000 });
    const [afterReset] = await queryRows<{ chars_used: number; period_start: Date }>(
      deps.db,
      sql`select chars_used, period_start from translation_quotas where id = ${id}`,
    );
    expect(afterReset!.chars_used).toBe(0);
    expect(new Date(afterReset!.period_start).toISOString()).toBe(dayStart.toISOString());
    const [resetLog] = await auditRows("translation_quota.reset", id);
    expect(resetLog!.changes.chars_used).toEqual({ before: 1200, after: 0 });

    // Switching to a monthly period starts at the current UTC month.
    const monthly = await at(`/api/v1/admin/translation-quotas/${id}`, {
      method: "PATCH",
      json: { period: "month", char_limit: 40_000 },
    });
    expect(monthly.status).toBe(200);
    expect(monthly.body).toMatchObject({
      period: "month",
      char_limit: 40_000,
      period_start: new Date(
        Date.UTC(fixed.getUTCFullYear(), fixed.getUTCMonth(), 1),
      ).toISOString(),
      resets_at: new Date(
        Date.UTC(fixed.getUTCFullYear(), fixed.getUTCMonth() + 1, 1),
      ).toISOString(),
    });
  });

  it("PATCH, reset and DELETE answer 404 for an unknown quota; DELETE removes it", async () => {
    const { admin, providerId } = await setup();
    const missing = `/api/v1/admin/translation-quotas/${crypto.randomUUID()}`;
    expect((await admin.call(missing)).status).toBe(404);
    expect((await admin.call(missing, { method: "PATCH", json: { enabled: false } })).status).toBe(
      404,
    );
    expect((await admin.call(`${missing}/reset`, { method: "POST" })).status).toBe(404);
    expect((await admin.call(missing, { method: "DELETE" })).status).toBe(404);
    const created = await admin.call("/api/v1/admin/translation-quotas", {
      json: { provider_id: providerId, period: "day", char_limit: 10 },
    });
    const path = `/api/v1/admin/translation-quotas/${created.body.id}`;
    for (const json of [{}, { provider_id: providerId }, { char_limit: -5 }]) {
      expect((await admin.call(path, { method: "PATCH", json })).status).toBe(422);
    }
    const off = await admin.call(path, { method: "PATCH", json: { enabled: false } });
    expect(off.body.enabled).toBe(false);
    expect((await admin.call(path, { method: "DELETE" })).status).toBe(204);
    expect((await admin.call(path)).status).toBe(404);
    expect(await auditRows("translation_quota.delete", created.body.id)).toHaveLength(1);
  });
});

describe("admin FAQ", () => {
  it("normalises keywords: trimmed, lower-cased, de-duplicated", async () => {
    const admin = await newAdmin();
    const created = await admin.call("/api/v1/admin/faq", {
      json: {
        question: "  What is your MOQ?  ",
        answer: "500 pieces.",
        keywords: [" MOQ", "moq ", "Minimum Order", "minimum order"],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      question: "What is your MOQ?",
      keywords: ["moq", "minimum order"],
      enabled: true,
      sort_order: 0,
    });
    const patched = await admin.call(`/api/v1/admin/faq/${created.body.id}`, {
      method: "PATCH",
      json: { keywords: ["Lead TIME", " lead time "], sort_order: 3 },
    });
    expect(patched.body).toMatchObject({ keywords: ["lead time"], sort_order: 3 });
    expect((await admin.call(`/api/v1/admin/faq/${created.body.id}`)).body).toEqual(patched.body);
    expect((await auditRows("faq.update", created.body.id)).map((l) => l.changes)).toEqual([
      {
        keywords: { before: ["moq", "minimum order"], after: ["lead time"] },
        sort_order: { before: 0, after: 3 },
      },
    ]);
  });

  it("answers 422 to bad fields and 404 to unknown ids, writing nothing", async () => {
    const admin = await newAdmin();
    const before = await count("faqs");
    for (const json of [
      { question: "", answer: "a" },
      { question: "   ", answer: "a" },
      { question: "q".repeat(501), answer: "a" },
      { question: "q", answer: "a".repeat(4001) },
      { question: "q", answer: "a", keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) },
      { question: "q", answer: "a", keywords: ["  "] },
      { question: "q", answer: "a", keywords: ["k".repeat(51)] },
      { question: "q" },
    ]) {
      const res = await admin.call("/api/v1/admin/faq", { json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(422);
    }
    expect(await count("faqs")).toBe(before);
    const missing = `/api/v1/admin/faq/${crypto.randomUUID()}`;
    expect((await admin.call(missing)).status).toBe(404);
    expect((await admin.call(missing, { method: "PATCH", json: { enabled: false } })).status).toBe(
      404,
    );
    expect((await admin.call(missing, { method: "DELETE" })).status).toBe(404);
    expect((await admin.call("/api/v1/admin/faq/x", { method: "DELETE" })).status).toBe(422);
  });

  it("lists by sort order, paged, filtered by enabled and question text; DELETE removes", async () => {
    await queryRows(deps.db, sql`delete from faqs`);
    const admin = await newAdmin();
    const ids: Record<string, string> = {};
    for (const [question, sort_order, enabled] of [
      ["Shipping to Europe?", 2, true],
      ["Payment terms?", 1, true],
      ["Do you give 100% refunds?", 3, false],
      ["Samples free?", 1, true],
    ] as const) {
      const res = await admin.call("/api/v1/admin/faq", {
        json: { question, answer: "Yes.", sort_order, enabled },
      });
      ids[question] = res.body.id;
    }
    const questions = (body: { items: { question: string }[] }) =>
      body.items.map((f) => f.question);
    const all = await admin.faqs({ size: 3 });
    expect(all.body.total).toBe(4);
    const ones = [ids["Payment terms?"]!, ids["Samples free?"]!].sort();
    expect(all.body.items.slice(0, 2).map((f) => f.id)).toEqual(ones);
    expect(questions(all.body)[2]).toBe("Shipping to Europe?");
    const last = await admin.faqs({ size: 3, page: 2 });
    expect(questions(last.body)).toEqual(["Do you give 100% refunds?"]);
    const enabled = await admin.faqs({ enabled: false });
    expect(questions(enabled.body)).toEqual(["Do you give 100% refunds?"]);
    const search = await admin.faqs({ q: "SHIPPING" });
    expect(questions(search.body)).toEqual(["Shipping to Europe?"]);
    // LIKE wildcards in the search text match literally.
    const percent = await admin.faqs({ q: "0% r" });
    expect(questions(percent.body)).toEqual(["Do you give 100% refunds?"]);
    const wildcard = await admin.faqs({ q: "%" });
    expect(questions(wildcard.body)).toEqual(["Do you give 100% refunds?"]);
    const underscore = await admin.faqs({ q: "_" });
    expect(underscore.body.total).toBe(0);

    const id = ids["Samples free?"]!;
    expect((await admin.call(`/api/v1/admin/faq/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await admin.call(`/api/v1/admin/faq/${id}`)).status).toBe(404);
    expect(await auditRows("faq.delete", id)).toHaveLength(1);
  });
});
