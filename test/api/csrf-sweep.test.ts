import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

/**
 * The one CSRF rule (docs/adr/0058-one-csrf-rule-for-every-write.md): every write of a cookie
 * session needs the token, enforced in requireAuth. This file walks the OpenAPI document
 * instead of a hand-kept list, so a route added later is swept too.
 */
const ctx = await createTestContext();
const { app } = ctx;

const WRITE_METHODS = new Set(["post", "put", "patch", "delete"]);
/**
 * Writes that carry no session, so there is nothing for a forged request to ride on. Anything
 * else must declare bearerAuth (and so be swept below): a new authenticated route that forgets
 * to declare it fails here rather than silently escaping the sweep.
 */
const PUBLIC_WRITES = new Set([
  "POST /api/v1/auth/register",
  "POST /api/v1/auth/login",
  "POST /api/v1/auth/guest",
  "POST /api/v1/auth/wechat/login",
  "POST /api/v1/auth/refresh",
  "POST /api/v1/auth/verify-email",
  "POST /api/v1/auth/password/forgot",
  "POST /api/v1/auth/password/reset",
  "POST /api/v1/payments/callback",
  "POST /api/v1/payments/stripe/webhook",
  "POST /api/v1/payments/sandbox/{order_no}/pay",
  "POST /api/v1/payments/sandbox/{order_no}/cancel",
  "POST /api/v1/webhooks/wechat",
  "POST /api/v1/jobs/{name}",
]);

interface WriteOperation {
  method: string;
  path: string;
  security: Record<string, string[]>[] | undefined;
  forbidden: string | undefined;
}

async function writeOperations(): Promise<WriteOperation[]> {
  const { status, body } = await call(app, "/api/v1/openapi.json");
  expect(status).toBe(200);
  const out: WriteOperation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(body.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (WRITE_METHODS.has(method))
        out.push({
          method,
          path,
          security: operation.security,
          forbidden: operation.responses?.["403"]?.description,
        });
    }
  }
  return out;
}

const takesSession = (op: WriteOperation) =>
  (op.security ?? []).some((requirement) => "bearerAuth" in requirement);
const label = (op: WriteOperation) => `${op.method.toUpperCase()} ${op.path}`;
/** Path parameters get random UUIDs: the check must come before any lookup or validation. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID());

function send(op: WriteOperation, session: Session, withToken: boolean) {
  const cookies: Record<string, string> = { access_token: session.accessToken };
  if (withToken) cookies.csrf_token = session.csrfToken;
  return call(app, concrete(op.path), {
    method: op.method.toUpperCase(),
    json: {},
    cookies,
    csrf: withToken ? session.csrfToken : undefined,
    headers: { Origin: "https://evil.example" },
    ip: session.ip,
  });
}

const isCsrfRefusal = (res: { status: number; body: any }) =>
  res.status === 403 && typeof res.body?.detail === "string" && /csrf/i.test(res.body.detail);

describe("CSRF sweep over the OpenAPI document", () => {
  it("every write is either public by design or declares the session schemes", async () => {
    const ops = await writeOperations();
    expect(ops.length).toBeGreaterThan(40);
    const undeclared = ops.filter((op) => !takesSession(op) && !PUBLIC_WRITES.has(label(op)));
    expect(undeclared.map(label)).toEqual([]);
    const missingCookieAlternative = ops
      .filter(takesSession)
      .filter(
        (op) =>
          !op.security!.some((r) => "cookieAuth" in r && "csrfToken" in r && !("bearerAuth" in r)),
      );
    expect(missingCookieAlternative.map(label)).toEqual([]);
    const undocumented = ops.filter(takesSession).filter((op) => !/csrf/i.test(op.forbidden ?? ""));
    expect(undocumented.map(label)).toEqual([]);
  });

  it("a cookie session without the token is refused with 403 on every write, before validation or lookup; with it, never", async () => {
    // One user and one admin per pass below, so no pass runs into another's per-user limits.
    const pairs = await Promise.all(
      [0, 1].map(async () => ({ user: await registerUser(app), admin: await registerAdmin(ctx) })),
    );
    const sessionFor = (op: WriteOperation, pass = 0) =>
      op.path.startsWith("/api/v1/admin/") ? pairs[pass]!.admin : pairs[pass]!.user;
    const ops = (await writeOperations()).filter(takesSession);
    expect(ops.length).toBeGreaterThan(40);

    const notRefused: string[] = [];
    for (const op of ops) {
      const res = await send(op, sessionFor(op), false);
      if (!isCsrfRefusal(res))
        notRefused.push(`${label(op)} -> ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(notRefused).toEqual([]);

    // Bearer clients cannot be driven by another site: only the routes the document marks C
    // (csrfToken beside bearerAuth, API.md) ask them for the header.
    const bearerMismatch: string[] = [];
    for (const op of ops) {
      const session = sessionFor(op, 1);
      const res = await call(app, concrete(op.path), {
        method: op.method.toUpperCase(),
        json: {},
        token: session.accessToken,
        ip: session.ip,
      });
      const marked = op.security!.some((r) => "bearerAuth" in r && "csrfToken" in r);
      if (isCsrfRefusal(res) !== marked) {
        bearerMismatch.push(
          `${label(op)} (C: ${marked}) -> ${res.status} ${JSON.stringify(res.body)}`,
        );
      }
    }
    expect(bearerMismatch).toEqual([]);

    // With the token the rule lets the request through to the route (which may still answer
    // 404, 422 or 402 for a random id and an empty body). Logout ends the session: last.
    const ordered = [...ops].sort(
      (a, b) => Number(a.path.endsWith("/logout")) - Number(b.path.endsWith("/logout")),
    );
    const wronglyRefused: string[] = [];
    for (const op of ordered) {
      const res = await send(op, sessionFor(op), true);
      if (isCsrfRefusal(res) || res.status === 401 || res.status === 429) {
        wronglyRefused.push(`${label(op)} -> ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wronglyRefused).toEqual([]);
  });

  it("a token signed for another session does not pass", async () => {
    const victim = await registerUser(app);
    const attacker = await registerUser(app);
    const res = await call(app, "/api/v1/customers", {
      json: { company: "Forged" },
      cookies: { access_token: victim.accessToken, csrf_token: attacker.csrfToken },
      csrf: attacker.csrfToken,
      ip: victim.ip,
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("CSRF token invalid");
  });

  it("Bearer clients are unaffected on ordinary writes, and C routes still require the header", async () => {
    const user = await registerUser(app);
    const created = await call(app, "/api/v1/customers", {
      json: { company: "Bearer Co" },
      token: user.accessToken,
      ip: user.ip,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const profile = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      json: { name: "No header" },
      token: user.accessToken,
      ip: user.ip,
    });
    expect(profile.status).toBe(403);
    expect(profile.body.detail).toBe("CSRF token missing");
  });
});

describe("cross-origin multipart import", () => {
  const csv = "company,email\nForged Ltd,forged@example.com\n";
  const form = () => {
    const data = new FormData();
    data.append("file", new File([csv], "customers.csv", { type: "text/csv" }));
    return data;
  };
  const customerCount = async (session: Session) => {
    const list = await call(app, "/api/v1/customers", {
      token: session.accessToken,
      ip: session.ip,
    });
    expect(list.status).toBe(200);
    return list.body.total as number;
  };

  it("with only the session cookie is refused and imports nothing", async () => {
    const user = await registerUser(app);
    for (const path of ["/api/v1/customers/import", "/api/v1/products/import"]) {
      const res = await call(app, path, {
        method: "POST",
        body: form(),
        cookies: { access_token: user.accessToken },
        headers: { Origin: "https://evil.example" },
        ip: user.ip,
      });
      expect(res.status, path).toBe(403);
      expect(res.body.detail).toMatch(/CSRF/);
    }
    expect(await customerCount(user)).toBe(0);
    const products = await call(app, "/api/v1/products", { token: user.accessToken, ip: user.ip });
    expect(products.body.total).toBe(0);

    // The same upload from the app's own page (token in header and cookie) goes through.
    const own = await call(app, "/api/v1/customers/import", {
      method: "POST",
      body: form(),
      cookies: { access_token: user.accessToken, csrf_token: user.csrfToken },
      csrf: user.csrfToken,
      ip: user.ip,
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(await customerCount(user)).toBe(1);
  });
});
