import { describe, expect, it } from "vitest";
import type { RateLimiter } from "../../src/providers/ratelimit/types";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { registerBusinessUser, setPlan } from "../support/plans";

/**
 * A query parameter the route does not read is 422 `validation_failed` naming it, on every
 * route (http/query.ts, docs/adr/0093-one-http-error-contract.md): swept over the served OpenAPI
 * document so a route added later is held to it too. Only the cache-buster `_` is let through,
 * and only signed callbacks (their sender writes the URL) take anything.
 */
const unlimited: RateLimiter = {
  consume: async (rule) => ({ allowed: true, limit: rule.points, remaining: 1, resetMs: 0 }),
};
const ctx = await createTestContext({ runtime: { limiter: unlimited } });
const { app, deps } = ctx;
type Json = Record<string, any>;
const doc = (await call(app, "/api/v1/openapi.json")).body as Json;

/** Paths a third party writes the URL of: they take any query (http/query.ts). */
const OPEN = /^\/api\/v1\/jobs\/|\/(callback|webhooks?)(\/|$)/;
const concrete = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_m, name) =>
    name === "key" ? "credits.costs" : crypto.randomUUID(),
  );

/** Every operation of the document but the open ones, with whether it takes a bearer token. */
function operations() {
  const out: { method: string; path: string; bearer: boolean }[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    if (OPEN.test(path)) continue;
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const bearer = (operation.security ?? []).some((r: Json) => "bearerAuth" in r);
      out.push({ method: method.toUpperCase(), path, bearer });
    }
  }
  return out;
}

const namesParameter = (body: Json, status: number, name: string) =>
  status === 422 &&
  body.code === "validation_failed" &&
  body.errors?.some((e: Json) => e.loc[0] === "query" && e.loc[1] === name && e.msg.includes(name));

describe("unknown query parameters", () => {
  it("every operation refuses one, naming it (route sweep)", async () => {
    const seller = await registerBusinessUser(app, deps);
    const admin = await registerAdmin(ctx);
    const missed: string[] = [];
    let swept = 0;
    for (const { method, path, bearer } of operations()) {
      const as: Session | undefined = bearer
        ? path.startsWith("/api/v1/admin/")
          ? admin
          : seller
        : undefined;
      const res = await call(app, `${concrete(path)}?utm_source=mail`, {
        method,
        token: as?.accessToken,
        csrf: as?.csrfToken,
        ip: as?.ip,
      });
      swept++;
      if (!namesParameter(res.body, res.status, "utm_source")) {
        missed.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(swept).toBeGreaterThan(100);
    expect(missed).toEqual([]);
  });

  it("admin users: `plan` is a filter; admin payments: `from`/`to` are 422 (start_date, end_date)", async () => {
    const admin = await registerAdmin(ctx);
    const pro = await registerUser(app);
    const business = await registerBusinessUser(app, deps);
    await setPlan(deps, pro.userId, "pro");
    const as = { token: admin.accessToken, ip: admin.ip };
    const list = await call(app, "/api/v1/admin/users?plan=business&size=1000", as);
    expect(list.status).toBe(200);
    const ids = list.body.items.map((u: Json) => u.id);
    expect(ids).toContain(business.userId);
    expect(ids).not.toContain(pro.userId);
    expect(new Set(list.body.items.map((u: Json) => u.plan))).toEqual(new Set(["business"]));

    const payments = await call(app, "/api/v1/admin/payments?from=2026-01-01&to=2026-02-01", as);
    expect(payments.status).toBe(422);
    expect(payments.body.code).toBe("validation_failed");
    expect(payments.body.errors.map((e: Json) => e.loc)).toEqual([
      ["query", "from"],
      ["query", "to"],
    ]);
    const dated = await call(
      app,
      "/api/v1/admin/payments?start_date=2026-01-01&end_date=2026-02-01",
      as,
    );
    expect(dated.status).toBe(200);
  });

  it("the cache-buster `_` passes; a known parameter still validates", async () => {
    const seller = await registerUser(app);
    const as = { token: seller.accessToken, ip: seller.ip };
    expect((await call(app, "/api/v1/customers?_=1732780000000", as)).status).toBe(200);
    expect((await call(app, "/api/v1/auth/me?_=1", as)).status).toBe(200);
    const refused = await call(app, "/api/v1/auth/me?fields=id", as);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].loc).toEqual(["query", "fields"]);
    expect((await call(app, "/api/v1/customers?size=0", as)).status).toBe(422);
  });

  it("a signed callback takes parameters its sender adds (not 422)", async () => {
    const res = await call(
      app,
      "/api/v1/webhooks/wechat?signature=x&timestamp=1&nonce=n&added_by_sender=1",
      {
        method: "GET",
      },
    );
    expect(res.status).not.toBe(422);
  });

  it("`size` is 1..1000 on every list, 20 by default", async () => {
    const seller = await registerUser(app);
    const as = { token: seller.accessToken, ip: seller.ip };
    for (const path of ["/api/v1/products", "/api/v1/notifications", "/api/v1/ai/conversations"]) {
      expect((await call(app, `${path}?size=1000`, as)).status, path).toBe(200);
      expect((await call(app, `${path}?size=1001`, as)).status, path).toBe(422);
      expect((await call(app, path, as)).body.size, path).toBe(20);
    }
    // Every list's `size` in the document: the same bounds.
    const sizes: string[] = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        const size = (operation.parameters ?? []).find(
          (p: Json) => p.in === "query" && p.name === "size",
        );
        if (!size) continue;
        const { minimum, maximum, default: fallback } = size.schema;
        if (minimum !== 1 || maximum !== 1000 || fallback !== 20) sizes.push(`${method} ${path}`);
      }
    }
    expect(sizes).toEqual([]);
  });
});
