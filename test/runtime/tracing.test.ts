import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type FakeOtlpCollector, startFakeOtlpCollector } from "../fakes/otlp-collector";
import { randomEmail } from "../support/client";
import { type RunningServer, startNodeServer } from "../support/node-server";
import { serverStore } from "../support/server-store";

/**
 * Traces through the real server process (issue #25 item 5, ADR 0119): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, each request's server span reaches a collector on 127.0.0.1,
 * named by method and route pattern and carrying the X-Request-Id the client was answered with;
 * on PostgreSQL its statements are child spans of it. The spans still buffered at SIGTERM are
 * sent before the process exits.
 */

const READY_MS = 120_000;
const SERVER = 2;
const CLIENT = 3;

function tracingSuite(kind: "pglite" | "postgres") {
  let collector: FakeOtlpCollector | undefined;
  let server: RunningServer | undefined;
  let cleanup: () => Promise<void> = async () => {};

  afterAll(async () => {
    await server?.stop();
    await collector?.close();
    await cleanup();
  });

  it(`exports a span per request with its request id, flushed at SIGTERM (${kind})`, async () => {
    collector = await startFakeOtlpCollector();
    const env: Record<string, string> = {
      SCHEDULER_ENABLED: "false",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: `trace-test-${kind}`,
    };
    const store = await serverStore(kind, "tracing");
    Object.assign(env, store.env);
    cleanup = store.drop;
    server = await startNodeServer(env, READY_MS);

    const registered = await fetch(`${server.url}/api/v1/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: randomEmail(), password: "secret12" }),
    });
    expect(registered.status, server.output()).toBe(201);
    const { access_token: token } = (await registered.json()) as { access_token: string };
    const missingId = randomUUID();
    const missing = await fetch(`${server.url}/api/v1/customers/${missingId}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    // The caller's own id is not ours: the span carries the one the server answered with.
    const sent = await fetch(`${server.url}/api/v1/auth/me`, {
      headers: { Authorization: `Bearer ${token}`, "X-Request-Id": "client-chosen-id-1" },
    });
    expect(sent.status).toBe(200);
    const meId = sent.headers.get("x-request-id");
    expect(meId).not.toBe("client-chosen-id-1");

    // Batched spans wait for their timer; SIGTERM sends them before the exit.
    expect(await server.stop()).toBe(0);
    expect(collector.rejected).toEqual([]);
    const spans = collector.spans;

    const customer = spans.find((s) => s.attributes["request.id"] === requestId);
    expect(customer, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    expect(customer).toMatchObject({
      name: "GET /api/v1/customers/:id",
      kind: SERVER,
      parentSpanId: "",
      attributes: { "http.route": "/api/v1/customers/:id", "http.response.status_code": 404 },
      resource: { "service.name": `trace-test-${kind}` },
    });
    expect(JSON.stringify(customer)).not.toContain(missingId);
    const me = spans.find((s) => s.attributes["request.id"] === meId);
    expect(me).toMatchObject({ name: "GET /api/v1/auth/me", kind: SERVER });
    const register = spans.find((s) => s.name === "POST /api/v1/auth/register");
    expect(register?.attributes["http.response.status_code"]).toBe(201);
    // The readiness poll's liveness probe is not traced.
    expect(spans.some((s) => s.name === "GET" || s.name === "GET /health")).toBe(false);

    const statements = spans.filter(
      (s) => s.kind === CLIENT && s.parentSpanId === register!.spanId,
    );
    if (kind === "postgres") {
      // Registering writes the user, its organisation and its credits: statements of that trace.
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement.traceId).toBe(register!.traceId);
        expect(statement.attributes["db.system.name"]).toBe("postgresql");
        expect(statement.name).toMatch(/^[A-Z]+$/);
      }
    } else {
      expect(statements).toEqual([]);
    }
    server = undefined;
  }, 240_000);
}

describe("traces on the embedded database", () => tracingSuite("pglite"));
describe.skipIf(!process.env.DATABASE_URL)("traces on PostgreSQL", () => tracingSuite("postgres"));
