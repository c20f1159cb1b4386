import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app";
import { queryRows } from "../../src/db/client";
import { createRouter } from "../../src/http/router";
import { createLogger } from "../../src/lib/logger";
import { createNodeListener } from "../../src/runtime/node/listener";
import { call, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

/**
 * Our request id is ours: a fresh UUID per request on the response, in the access log, in a
 * 500's body and in the admin audit row, whatever X-Request-Id the caller sent. The caller's id,
 * when short and plain, is kept beside it (`client_request_id`), never as it
 * (docs/adr/0088-streams-end-with-their-session.md, "Request ids").
 */
const ctx = await createTestContext();
const { deps } = ctx;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The app with an access log written to `lines`. */
async function loggedApp() {
  const lines: Record<string, unknown>[] = [];
  const app = await ctx.makeApp(
    { logger: createLogger("info", (line) => lines.push(JSON.parse(line))) },
    { LOG_LEVEL: "info" },
  );
  return { app, lines };
}

const adminCall = (app: App, admin: Session, path: string, options: Parameters<typeof call>[2]) =>
  call(app, path, { token: admin.accessToken, ip: admin.ip, ...options });

const auditOf = (targetId: string) =>
  queryRows<{ action: string; request_id: string; client_request_id: string | null }>(
    deps.db,
    sql`select action, request_id, client_request_id from admin_audit_log
        where target_id = ${targetId} order by created_at, id`,
  );

/** An admin write: a credit package created, then its price changed (two audit rows). */
async function createPackage(app: App, admin: Session, headers: Record<string, string> = {}) {
  const res = await adminCall(app, admin, "/api/v1/admin/credit-packages", {
    json: { name: "Request ids", credits: 1, price: 1 },
    headers,
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, requestId: res.res.headers.get("x-request-id")! };
}

describe("the admin audit row's request id", () => {
  it("is ours (the response's and the access log's); a forged X-Request-Id is kept beside it, never as it", async () => {
    const { app, lines } = await loggedApp();
    const admin = await registerAdmin(ctx);
    const first = await createPackage(app, admin);
    expect(first.requestId).toMatch(UUID);
    // A second request names the first one's id: it must not be able to pass as that request.
    const forged = await adminCall(app, admin, `/api/v1/admin/credit-packages/${first.id}`, {
      method: "PATCH",
      json: { price: 2 },
      headers: { "X-Request-Id": first.requestId },
    });
    expect(forged.status).toBe(200);
    const ours = forged.res.headers.get("x-request-id")!;
    expect(ours).toMatch(UUID);
    expect(ours).not.toBe(first.requestId);
    expect(await auditOf(first.id)).toEqual([
      { action: "credit_package.create", request_id: first.requestId, client_request_id: null },
      { action: "credit_package.update", request_id: ours, client_request_id: first.requestId },
    ]);
    const logged = lines.filter((l) => l.msg === "request" && l.method === "PATCH");
    expect(logged).toEqual([
      expect.objectContaining({
        request_id: ours,
        client_request_id: first.requestId,
        status: 200,
      }),
    ]);
    // The admin's list shows both, each under its own name.
    const list = await adminCall(app, admin, `/api/v1/admin/audit-log?target_id=${first.id}`, {});
    expect(list.status).toBe(200);
    expect(
      list.body.items.map((r: { request_id: string; client_request_id: string | null }) => [
        r.request_id,
        r.client_request_id,
      ]),
    ).toEqual([
      [ours, first.requestId],
      [first.requestId, null],
    ]);
  });

  it("a caller's id that is long or not plain is neither stored nor logged", async () => {
    const { app, lines } = await loggedApp();
    const admin = await registerAdmin(ctx);
    const bad = [
      "x".repeat(129),
      'evil","admin":"true',
      "two words",
      "a/b",
      "line\\nbreak",
      "trace-1, trace-2",
    ];
    for (const sent of bad) {
      const made = await createPackage(app, admin, { "X-Request-Id": sent });
      expect(made.requestId).toMatch(UUID);
      expect(await auditOf(made.id)).toEqual([
        { action: "credit_package.create", request_id: made.requestId, client_request_id: null },
      ]);
      const line = lines.find((l) => l.msg === "request" && l.request_id === made.requestId);
      expect(line, sent).toBeDefined();
      expect(line).not.toHaveProperty("client_request_id");
    }
    const text = JSON.stringify(lines);
    for (const sent of bad) expect(text).not.toContain(JSON.stringify(sent).slice(1, -1));
    // A plain one of 128 characters is kept.
    const longest = `${"a".repeat(120)}.:=_-789`;
    const kept = await createPackage(app, admin, { "X-Request-Id": longest });
    expect((await auditOf(kept.id))[0]!.client_request_id).toBe(longest);
  });

  it("a 500 names our id, not the caller's", async () => {
    const lines: string[] = [];
    const boomDeps = { ...deps, logger: createLogger("error", (line) => lines.push(line)) };
    const boomApp = createApp(boomDeps, []);
    const router = createRouter();
    router.get("/boom", () => {
      throw new Error("boom");
    });
    boomApp.route("/", router);
    const res = await boomApp.request("/boom", { headers: { "X-Request-Id": "req-500" } });
    expect(res.status).toBe(500);
    const ours = res.headers.get("x-request-id");
    expect(ours).toMatch(UUID);
    expect(await res.json()).toEqual({
      detail: "Internal server error",
      code: "internal_error",
      request_id: ours,
    });
    expect(JSON.parse(lines.find((l) => l.includes("unhandled error"))!).request_id).toBe(ours);
  });
});

describe("on the Node listener (ids put on the socket before the app)", () => {
  let server: Server;
  let url: string;
  const logs: Record<string, unknown>[] = [];

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers our id, hands the caller's (checked) to the app beside it, and ignores a forged X-Client-Request-Id", async () => {
    const nodeDeps = {
      ...deps,
      config: { ...deps.config, LOG_LEVEL: "info" as const },
      logger: createLogger("info", (line) => logs.push(JSON.parse(line))),
    };
    const app = createApp(nodeDeps, undefined, { headersSetByRuntime: true });
    server = createServer(createNodeListener(getRequestListener(app.fetch)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const admin = await registerAdmin(ctx);
    const cases: [Record<string, string>, string | null][] = [
      [{ "X-Request-Id": "trace-1" }, "trace-1"],
      [{ "X-Request-Id": "bad id with spaces" }, null],
      [{ "X-Client-Request-Id": "forged-client" }, null],
      [{ "X-Request-Id": "trace-2", "X-Client-Request-Id": "forged-client" }, "trace-2"],
    ];
    for (const [headers, client] of cases) {
      const res = await fetch(`${url}/api/v1/admin/credit-packages`, {
        method: "POST",
        headers: {
          ...headers,
          Authorization: `Bearer ${admin.accessToken}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ name: "Node ids", credits: 1, price: 1 }),
      });
      expect(res.status).toBe(201);
      const ours = res.headers.get("x-request-id")!;
      expect(ours).toMatch(UUID);
      const { id } = (await res.json()) as { id: string };
      expect(await auditOf(id)).toEqual([
        { action: "credit_package.create", request_id: ours, client_request_id: client },
      ]);
      const line = logs.find((l) => l.msg === "request" && l.request_id === ours);
      expect(line?.client_request_id).toBe(client ?? undefined);
    }
  });
});
