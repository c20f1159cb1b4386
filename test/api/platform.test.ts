import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { createRouter } from "../../src/http/router";
import { createRedisRateLimiter } from "../../src/runtime/node/redis-rate-limiter";
import {
  call,
  expectStatus,
  randomEmail,
  randomIp,
  registerUser,
  api as typed,
} from "../support/client";
import { createTestContext, onPostgres, prefixedLimiter } from "../support/harness";

const ctx = await createTestContext({
  env: {
    CORS_ORIGINS: "https://app.example.com,https://admin.example.com",
    BODY_LIMIT_BYTES: "2048",
  },
});
const { app } = ctx;

describe("health", () => {
  it("answers liveness and readiness", async () => {
    const live = await typed(app).get("/health");
    expectStatus(live, 200);
    expect(live.body).toEqual({ status: "ok" });
    expectStatus(await typed(app).get("/health/ready"), 200);
  });

  it("answers 503 with a detail when the database is down", async () => {
    const broken = await ctx.makeApp({
      database: {
        ...ctx.database,
        ping: () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.5:5432")),
      },
    });
    const { status, body } = await call(broken, "/health/ready");
    expect(status).toBe(503);
    expect(body.detail).toBe("Database is unreachable");
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED/);
  });
});

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document describing the account routes", async () => {
    const { status, body } = await call(app, "/api/v1/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    for (const path of [
      "/api/v1/auth/login",
      "/api/v1/auth/me",
      "/api/v1/usage/stats",
      "/api/v1/users/me",
    ]) {
      expect(body.paths[path]).toBeDefined();
    }
    const result = await validate(structuredClone(body));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("serves the reference page", async () => {
    const { status, res } = await call(app, "/docs");
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
  });
});

describe("security edge", () => {
  it("allows only configured origins, with restricted methods and headers", async () => {
    const preflight = await app.request("/api/v1/auth/login", {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example.com",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-csrf-token",
      },
    });
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example.com");
    expect(preflight.headers.get("Access-Control-Allow-Credentials")).toBe("true");
    expect(preflight.headers.get("Access-Control-Allow-Methods")).not.toMatch(/TRACE|CONNECT/);
    expect(preflight.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain(
      "x-csrf-token",
    );

    const evil = await app.request("/api/v1/auth/me", {
      headers: { Origin: "https://evil.example" },
    });
    expect(evil.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("sets secure headers and our own request id, whatever id the caller sent", async () => {
    const { res } = await call(app, "/health", { headers: { "X-Request-Id": "trace-abc-123" } });
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const fresh = await call(app, "/health");
    expect(fresh.res.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("rejects bodies over the limit with 413", async () => {
    const { status, body } = await call(app, "/api/v1/auth/register", {
      json: { email: randomEmail(), password: "x".repeat(4000) },
      ip: randomIp(),
    });
    expect(status).toBe(413);
    expect(body.detail).toMatch(/too large/);
  });

  it("answers an unknown path with a JSON 404", async () => {
    const { status, body } = await call(app, "/api/v1/nope");
    expect(status).toBe(404);
    expect(body).toEqual({ detail: "Not found", code: "not_found" });
  });

  it("turns an unexpected failure into a generic 500 with the request id, never the message", async () => {
    const router = createRouter();
    router.get("/boom", () => {
      throw new Error("password=hunter2 at db.internal:5432");
    });
    const lines: string[] = [];
    const { createApp } = await import("../../src/app");
    const { createLogger } = await import("../../src/lib/logger");
    const deps = { ...ctx.deps, logger: createLogger("error", (line) => lines.push(line)) };
    const boomApp = createApp(deps, []);
    boomApp.route("/", router);
    const res = await boomApp.request("/boom");
    const body = await res.json();
    expect(res.status).toBe(500);
    const requestId = res.headers.get("X-Request-Id");
    expect(body).toEqual({
      detail: "Internal server error",
      code: "internal_error",
      request_id: requestId,
    });
    const logged = JSON.parse(lines.find((l) => l.includes("unhandled error"))!);
    expect(logged.request_id).toBe(requestId);
  });
});

describe("usage stats", () => {
  it("counts events per UTC day within the range", async () => {
    const user = await registerUser(app);
    const login = await typed(app).post("/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expectStatus(login, 200);
    await ctx.database.db.execute(
      `insert into usage_logs (user_id, event, created_at) values
        ('${user.userId}', 'login', '2026-03-01T23:59:59Z'),
        ('${user.userId}', 'login', '2026-03-02T00:00:00Z'),
        ('${user.userId}', 'translate', '2026-03-02T12:00:00Z'),
        ('${user.userId}', 'login', '2026-03-04T00:00:00Z')` as never,
    );
    const stats = await typed(app).get("/api/v1/usage/stats", {
      token: user.accessToken,
      query: { start_date: "2026-03-02", end_date: "2026-03-03" },
    });
    expectStatus(stats, 200);
    const { body } = stats;
    expect(body).toEqual({
      start_date: "2026-03-02",
      end_date: "2026-03-03",
      total: 2,
      by_event: { login: 1, translate: 1 },
      days: [
        { date: "2026-03-02", total: 2, events: { login: 1, translate: 1 } },
        { date: "2026-03-03", total: 0, events: {} },
      ],
    });
    const today = await typed(app).get("/api/v1/usage/stats", { token: user.accessToken });
    expectStatus(today, 200);
    expect(today.body.days).toHaveLength(30);
    expect(today.body.by_event).toEqual({ register: 1, login: 1 });
  });

  it("rejects bad dates and reversed or oversized ranges with 422", async () => {
    const user = await registerUser(app);
    for (const query of [
      "start_date=2026-02-30",
      "start_date=yesterday",
      "start_date=2026-03-05&end_date=2026-03-01",
      "start_date=2020-01-01&end_date=2026-01-01",
    ]) {
      const { status } = await call(app, `/api/v1/usage/stats?${query}`, {
        token: user.accessToken,
      });
      expect(status, query).toBe(422);
    }
  });

  it("never shows another user's events", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    const stats = await typed(app).get("/api/v1/usage/stats", { token: b.accessToken });
    expectStatus(stats, 200);
    expect(stats.body.total).toBe(1);
    expect(a.userId).not.toBe(b.userId);
  });
});

describe.skipIf(!onPostgres || !process.env.REDIS_URL)("rate limits across instances", () => {
  it("two app instances on one Redis share one login budget", async () => {
    const prefix = `shared${Date.now()}:`;
    const limiterA = prefixedLimiter(createRedisRateLimiter(process.env.REDIS_URL!), prefix);
    const limiterB = prefixedLimiter(createRedisRateLimiter(process.env.REDIS_URL!), prefix);
    const appA = await ctx.makeApp({ limiter: limiterA });
    const appB = await ctx.makeApp({ limiter: limiterB });
    try {
      const user = await registerUser(appA);
      const ip = randomIp();
      const attempt = (target: typeof appA) =>
        call(target, "/api/v1/auth/login", {
          json: { email: user.email, password: "wrong-pass" },
          ip,
        });
      const statuses = [];
      for (const target of [appA, appB, appA, appB, appA])
        statuses.push((await attempt(target)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect((await attempt(appB)).status).toBe(429);
    } finally {
      await limiterA.close?.();
      await limiterB.close?.();
    }
  });

  it("fails closed on login when Redis is unreachable", async () => {
    const down = createRedisRateLimiter("redis://127.0.0.1:1");
    const appDown = await ctx.makeApp({ limiter: down });
    try {
      const { status, res } = await call(appDown, "/api/v1/auth/login", {
        json: { email: randomEmail(), password: "whatever" },
        ip: randomIp(),
      });
      expect(status).toBe(503);
      expect(res.headers.get("Retry-After")).toBeTruthy();
    } finally {
      await down.close?.();
    }
  });
});
