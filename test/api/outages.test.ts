import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client";
import { databaseUnavailable } from "../../src/db/client";
import type { AppEnv } from "../../src/http/env";
import { handleError } from "../../src/http/errors";
import { createLogger, OUTAGE_REPEAT_MS, outageLog } from "../../src/lib/logger";
import { RateLimiterUnavailableError } from "../../src/providers/ratelimit/types";
import { openPostgresDatabase } from "../../src/runtime/node/database";
import { call, registerUser } from "../support/client";
import { createTestContext, onPostgres, openTestDatabase } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;

/** A logger whose lines the test can read, one parsed object per line. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger("debug", (line) => lines.push(JSON.parse(line)));
  return { logger, lines, errors: () => lines.filter((l) => l.level === "error") };
}

/** A clock the test moves; everything else in the app reads real time. */
function movableClock() {
  let offset = 0;
  return {
    clock: { now: () => new Date(Date.now() + offset) },
    advance: (ms: number) => (offset += ms),
  };
}

/** node-postgres pointed at a port nothing listens on: every query is ECONNREFUSED. */
const refusedDatabase = (): Database =>
  openPostgresDatabase("postgres://postgres@127.0.0.1:1/none", 2);

describe("a lost database", () => {
  it("answers 503 with Retry-After and a safe detail, and logs one line for many requests", async () => {
    const user = await registerUser(app);
    const log = capture();
    const time = movableClock();
    const database = refusedDatabase();
    try {
      const broken = await ctx.makeApp({ database, logger: log.logger, clock: time.clock });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(broken, "/api/v1/customers", { token: user.accessToken }),
        ),
      );
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          detail: "Service temporarily unavailable, try again shortly",
          code: "service_unavailable",
        });
      }
      const raw = await broken.request("/api/v1/customers", {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      });
      expect(raw.status).toBe(503);
      expect(Number(raw.headers.get("Retry-After"))).toBeGreaterThan(0);

      expect(log.errors()).toHaveLength(1);
      const [line] = log.errors();
      expect(line).toMatchObject({ msg: "database unavailable", dependency: "database" });
      expect(String(line!.cause)).toMatch(/ECONNREFUSED/);
      expect(line!.request_id).toEqual(expect.any(String));
      expect(JSON.stringify(log.lines)).not.toMatch(/Failed query|params:|select |"stack"/i);

      // Still down a minute later: one more line, with how many requests failed meanwhile.
      time.advance(OUTAGE_REPEAT_MS);
      await call(broken, "/api/v1/customers", { token: user.accessToken });
      await call(broken, "/api/v1/customers", { token: user.accessToken });
      expect(log.errors()).toHaveLength(2);
      expect(log.errors()[1]).toMatchObject({ msg: "database still unavailable" });
      expect(log.errors()[1]!.failures).toBeGreaterThanOrEqual(10);
    } finally {
      await database.close();
    }
  });

  it.skipIf(onPostgres)("treats a closed PGlite the same way", async () => {
    const user = await registerUser(app);
    const log = capture();
    const database = await openTestDatabase();
    await database.close();
    const broken = await ctx.makeApp({ database, logger: log.logger });
    for (let i = 0; i < 3; i++) {
      const res = await call(broken, "/api/v1/customers", { token: user.accessToken });
      expect(res.status).toBe(503);
    }
    expect(log.errors()).toHaveLength(1);
    expect(log.errors()[0]).toMatchObject({ cause: "PGlite is closed" });
  });

  it("recognises connection errors, not statement errors", () => {
    const wrapped = (cause: unknown) =>
      Object.assign(new Error("Failed query: select 1\nparams: a@b.c"), { cause });
    const pgError = (code: string, message = "x") => Object.assign(new Error(message), { code });
    expect(databaseUnavailable(wrapped(pgError("ECONNREFUSED")))).toBe("ECONNREFUSED");
    expect(databaseUnavailable(wrapped(pgError("ECONNRESET")))).toBe("ECONNRESET");
    expect(databaseUnavailable(pgError("57P01"))).toBe("SQLSTATE 57P01");
    expect(databaseUnavailable(pgError("08006"))).toBe("SQLSTATE 08006");
    expect(databaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(
      "Connection terminated unexpectedly",
    );
    expect(databaseUnavailable(wrapped(pgError("23505")))).toBeUndefined();
    expect(databaseUnavailable(wrapped(pgError("22P02")))).toBeUndefined();
    expect(databaseUnavailable(new Error("Failed query: Connection terminated"))).toBeUndefined();
  });
});

describe("a lost rate limiter", () => {
  const down = {
    consume: () =>
      Promise.reject(
        new RateLimiterUnavailableError(new Error("connect ECONNREFUSED 127.0.0.1:6379")),
      ),
  };

  it("answers 503 on a fail-closed route and logs one line for many requests", async () => {
    const log = capture();
    const broken = await ctx.makeApp({ limiter: down, logger: log.logger });
    for (let i = 0; i < 5; i++) {
      const res = await call(broken, "/api/v1/auth/login", {
        json: { email: "someone@example.com", password: "wrong password" },
      });
      expect(res.status).toBe(503);
    }
    expect(log.errors()).toHaveLength(1);
    expect(log.errors()[0]).toMatchObject({ msg: "limiter unavailable", dependency: "limiter" });
    expect(JSON.stringify(log.lines)).not.toContain("someone@example.com");
  });

  it("is named by /health/ready (503), the database by its own name", async () => {
    const log = capture();
    const broken = await ctx.makeApp({ limiter: down, logger: log.logger });
    const res = await call(broken, "/health/ready");
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      detail: "Rate limiter is unreachable",
      code: "service_unavailable",
      checks: { database: "ok", limiter: "unavailable" },
    });
    const database = refusedDatabase();
    try {
      const both = await ctx.makeApp({ limiter: down, database, logger: log.logger });
      expect((await call(both, "/health/ready")).body).toEqual({
        detail: "Database and rate limiter are unreachable",
        code: "service_unavailable",
        checks: { database: "unavailable", limiter: "unavailable" },
      });
    } finally {
      await database.close();
    }
    expect((await call(app, "/health/ready")).body).toEqual({ status: "ok" });
  });
});

describe("outage episodes", () => {
  it("logs again only after the dependency recovered", () => {
    const log = capture();
    const outages = outageLog(log.logger);
    outages.down("database", 0, { cause: "ECONNREFUSED" });
    outages.down("database", 10, { cause: "ECONNREFUSED" });
    expect(log.errors()).toHaveLength(1);
    outages.up("database", 20);
    expect(log.lines.at(-1)).toMatchObject({ msg: "database recovered", failures: 2 });
    outages.up("database", 30);
    outages.down("database", 40, { cause: "ECONNRESET" });
    expect(log.errors()).toHaveLength(2);
  });
});

describe("an unhandled SQL error", () => {
  it("is logged with its code and cause, never the statement's parameters", async () => {
    const log = capture();
    const email = "private.person@example.com";
    const probe = new Hono<AppEnv>();
    probe.use(async (c, next) => {
      c.set("deps", { ...deps, logger: log.logger });
      c.set("requestId", "req-sql-1");
      await next();
    });
    probe.get("/boom", async (c) => {
      await deps.db.execute(sql`select ${email}::int as n`);
      return c.text("unreachable");
    });
    probe.onError(handleError);
    const res = await probe.request("/boom");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      detail: "Internal server error",
      code: "internal_error",
      request_id: "req-sql-1",
    });
    expect(log.errors()).toHaveLength(1);
    const [line] = log.errors();
    expect(line).toMatchObject({ msg: "unhandled error", request_id: "req-sql-1", code: "22P02" });
    expect(line!.statement).toBe("select");
    expect(String(line!.cause)).toMatch(/invalid input syntax for type integer/);
    const text = JSON.stringify(log.lines);
    expect(text).not.toContain(email);
    expect(text).not.toContain("private.person");
    expect(text).not.toMatch(/Failed query|params/);
  });
});
