import { randomBytes, randomUUID } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { randomEmail } from "../support/client";
import { PRODUCTION_ENV } from "../support/harness";
import { type RunningServer, runToExit, startNodeServer } from "../support/node-server";
import { serverStore } from "../support/server-store";

/**
 * `GET /metrics` through the real server process (issue #25 item 5, ADR 0119): off without
 * METRICS_TOKEN, 401 without the exact token, and with it Prometheus text whose counters move
 * with the requests, charges, refunds and provider attempts the test makes, labelled by route
 * pattern (never an id).
 */

const READY_MS = 120_000;
const COST = 2;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The text exposition format, strictly: every line a comment (`# HELP`/`# TYPE`) or a sample
 * `name{label="value",…} number`; anything else fails the parse, the marker of a cluster worker
 * answering alone (`# Only worker …`, its primary silent) included.
 */
function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/;
  const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[3] ?? "";
    labelPair.lastIndex = 0;
    let consumed = 0;
    for (let pair = labelPair.exec(body); pair; pair = labelPair.exec(body)) {
      labels[pair[1]!] = pair[2]!;
      consumed = labelPair.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels: ${line}`);
    samples.push({ name: match[1]!, labels, value: Number(match[4]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(server: RunningServer, token: string): Promise<Sample[]> {
  const res = await fetch(`${server.url}/metrics`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status, server.output()).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text());
}

/** A GET on a connection of its own (no keep-alive agent). */
function onNewConnection(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent: false, headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function api(
  server: RunningServer,
  path: string,
  init: { token?: string; body?: unknown; key?: string } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      "Content-Type": "application/json",
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.key ? { "Idempotency-Key": init.key } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe("METRICS_TOKEN in production", () => {
  it("is judged like the other secrets when set, and may be left unset", () => {
    expect(() => parseConfig({ ...PRODUCTION_ENV, METRICS_TOKEN: "metrics-token-1234" })).toThrow(
      /METRICS_TOKEN/,
    );
    expect(() =>
      parseConfig({ ...PRODUCTION_ENV, METRICS_TOKEN: PRODUCTION_ENV.JWT_SECRET }),
    ).toThrow(ConfigError);
    expect(
      parseConfig({ ...PRODUCTION_ENV, METRICS_TOKEN: randomBytes(24).toString("base64url") })
        .METRICS_TOKEN,
    ).toBeTruthy();
    expect(parseConfig(PRODUCTION_ENV).METRICS_TOKEN).toBeFalsy();
  });
});

function metricsSuite(kind: "pglite" | "postgres") {
  const token = randomBytes(24).toString("base64url");
  const servers: RunningServer[] = [];
  let llm: FakeOpenAi | undefined;
  let cleanup: () => Promise<void> = async () => {};
  let env: Record<string, string> = {};

  beforeAll(async () => {
    llm = await startFakeOpenAi("sk-metrics");
    env = {
      INSTANCE_ID: `metrics-${kind}`,
      SCHEDULER_ENABLED: "false",
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      TRUST_PROXY: "1",
    };
    const store = await serverStore(kind, "metrics");
    Object.assign(env, store.env);
    cleanup = store.drop;
    if (kind === "postgres") {
      // Two workers: a scrape reaches one, and must count what the other served.
      env.WEB_CONCURRENCY = "2";
    }
    // The translation is routed to the fake provider at a known price (the server is not
    // running: the embedded database has one owner at a time).
    const fixture = await runToExit(
      env,
      "test/support/crash-fixture.ts",
      [llm.url, llm.apiKey, String(COST), "translate"],
      90_000,
    );
    expect(fixture.code, fixture.output).toBe(0);
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await llm?.close();
    await cleanup();
  });

  const start = async (extra: Record<string, string>) => {
    const server = await startNodeServer({ ...env, ...extra }, READY_MS);
    servers.push(server);
    return server;
  };

  it(`is off without METRICS_TOKEN: 404 like any unknown path (${kind})`, async () => {
    const server = await start({});
    const res = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(404);
    expect(await server.stop()).toBe(0);
  }, 180_000);

  it(`answers only the exact Bearer token, and counts what happened (${kind})`, async () => {
    const server = await start({ METRICS_TOKEN: token });
    for (const authorization of [
      undefined,
      "Bearer ",
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      `Basic ${token}`,
      token,
    ]) {
      const res = await fetch(`${server.url}/metrics`, {
        headers: authorization === undefined ? {} : { Authorization: authorization },
      });
      expect(res.status, String(authorization)).toBe(401);
      expect(await res.text()).not.toContain("# TYPE");
    }

    const before = await scrape(server, token);
    // The process's own metrics come with it (collectDefaultMetrics).
    expect(total(before, "process_cpu_user_seconds_total")).toBeGreaterThan(0);

    const registered = await api(server, "/api/v1/auth/register", {
      body: { email: randomEmail(), password: "secret12" },
    });
    expect(registered.status).toBe(201);
    const userToken = registered.body.access_token as string;
    for (let i = 0; i < 3; i++) {
      expect((await api(server, "/api/v1/auth/me", { token: userToken })).status).toBe(200);
    }
    // One connection each: the cluster hands new connections to its workers in turn.
    const spread = kind === "postgres" ? 10 : 0;
    for (let i = 0; i < spread; i++) {
      expect(await onNewConnection(`${server.url}/api/v1/auth/me`, userToken)).toBe(200);
    }
    const missingId = randomUUID();
    expect((await api(server, `/api/v1/customers/${missingId}`, { token: userToken })).status).toBe(
      404,
    );
    expect((await api(server, `/no/such/${missingId}`)).status).toBe(404);

    const translate = (key: string) =>
      api(server, "/api/v1/translate", {
        token: userToken,
        key,
        body: { text: "500 pieces FOB Ningbo.", source_lang: "en", target_lang: "zh" },
      });
    llm!.reply(() => "宁波离岸价 500 件。");
    const answered = await translate(`metrics-ok-${kind}`);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    llm!.fail("http-500");
    const failed = await translate(`metrics-fail-${kind}`);
    expect(failed.status, JSON.stringify(failed.body)).toBeGreaterThanOrEqual(500);
    llm!.fail(null);

    const after = await scrape(server, token);
    const requests = (labels: Record<string, string>) =>
      total(after, "http_request_duration_seconds_count", labels) -
      total(before, "http_request_duration_seconds_count", labels);
    expect(requests({ method: "GET", route: "/api/v1/auth/me", status_class: "2xx" })).toBe(
      3 + spread,
    );
    expect(requests({ method: "GET", route: "/api/v1/customers/:id", status_class: "4xx" })).toBe(
      1,
    );
    expect(requests({ method: "GET", route: "unmatched", status_class: "4xx" })).toBe(1);
    expect(requests({ method: "POST", route: "/api/v1/translate", status_class: "2xx" })).toBe(1);
    expect(requests({ method: "POST", route: "/api/v1/translate", status_class: "5xx" })).toBe(1);
    // The histogram's buckets hold every request its count does.
    expect(
      total(after, "http_request_duration_seconds_bucket", {
        route: "/api/v1/auth/me",
        le: "+Inf",
      }),
    ).toBe(total(after, "http_request_duration_seconds_count", { route: "/api/v1/auth/me" }));
    // No label anywhere carries an id: the route is the pattern, never the path.
    for (const sample of after) {
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toContain(missingId);
        expect(value).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      }
    }
    // Both translations were charged; the failed one was given back.
    expect(total(after, "credits_charges_total", { operation: "translate" })).toBe(2);
    expect(total(after, "credits_charged_total", { operation: "translate" })).toBe(2 * COST);
    expect(total(after, "credits_refunds_total", { operation: "translate" })).toBe(1);
    expect(total(after, "credits_refunded_total", { operation: "translate" })).toBe(COST);
    expect(
      total(after, "provider_calls_total", { provider: "crash-llm", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      total(after, "provider_calls_total", { provider: "crash-llm", outcome: "error" }),
    ).toBeGreaterThanOrEqual(1);
    // Nothing queued or running; the gauge is there.
    expect(after.some((s) => s.name === "agent_runs_open")).toBe(true);
    expect(total(after, "agent_runs_open")).toBe(0);
    expect(after.some((s) => s.name === "discovery_jobs_open")).toBe(true);
    expect(total(after, "discovery_jobs_open")).toBe(0);
    if (kind === "postgres") {
      // The scrape itself holds no connection; the pool has opened some by now.
      expect(total(after, "db_pool_connections")).toBeGreaterThan(0);
      expect(total(after, "db_pool_waiting")).toBe(0);
    }
    expect(await server.stop()).toBe(0);
  }, 240_000);
}

describe("/metrics on the embedded database", () => metricsSuite("pglite"));
describe.skipIf(!process.env.DATABASE_URL)("/metrics on PostgreSQL", () =>
  metricsSuite("postgres"),
);
