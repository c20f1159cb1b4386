import * as argon2 from "@node-rs/argon2";
import { sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { needsRehash } from "../../src/lib/password";
import {
  call,
  expectStatus,
  randomEmail,
  randomIp,
  registerUser,
  api as typed,
} from "../support/client";
import { createTestContext, TEST_SECRETS } from "../support/harness";

const ctx = await createTestContext();
const { app } = ctx;
/** The success paths, typed by the OpenAPI document (ADR 0095); error paths stay on `call()`. */
const t = typed(app);
/** The document's user is a full account or a guest (is_guest: true); narrows to the account. */
function account<U extends { is_guest: boolean }>(user: U): Exclude<U, { is_guest: true }> {
  if (user.is_guest) throw new Error("expected an account, got a guest");
  return user as Exclude<U, { is_guest: true }>;
}
const te = new TextEncoder();

async function forgeToken(
  claims: Record<string, unknown>,
  options: { alg?: string; exp?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: options.alg ?? "HS256" })
    .setIssuer("trade-assistant")
    .setAudience("trade-assistant-api")
    .setIssuedAt(now - 10)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(te.encode(TEST_SECRETS.jwtSecret));
}

describe("register", () => {
  it("creates the account with 30 credits, a 7-day trial and a session", async () => {
    const email = randomEmail();
    const registered = await t.post("/api/v1/auth/register", {
      json: { email: email.toUpperCase(), password: "secret1", name: "Li Wei" },
      ip: randomIp(),
    });
    expectStatus(registered, 201);
    const { body, cookies } = registered;
    expect(body.token_type).toBe("bearer");
    expect(body.expires_in).toBe(900);
    expect(body.user).toMatchObject({
      email,
      name: "Li Wei",
      credits: 30,
      plan: "pro",
      is_guest: false,
      is_trial_active: true,
    });
    const trialDays =
      (Date.parse(account(body.user).trial_ends_at ?? "") - Date.now()) / 86_400_000;
    expect(trialDays).toBeGreaterThan(6.99);
    expect(trialDays).toBeLessThanOrEqual(7);
    expect(cookies.access_token).toBe(body.access_token);
    expect(cookies.refresh_token).toBe(body.refresh_token);
    expect(cookies.csrf_token).toBe(body.csrf_token);

    const ledger = await ctx.database.db.execute(
      `select delta, balance_after, kind from credit_ledger where user_id = '${body.user.id}'` as never,
    );
    expect((ledger as unknown as { rows: unknown[] }).rows).toEqual([
      { delta: 30, balance_after: 30, kind: "registration_grant" },
    ]);
  });

  it("rejects a 5-character password with 422 and creates nothing", async () => {
    const email = randomEmail();
    const { status, body } = await call(app, "/api/v1/auth/register", {
      json: { email, password: "12345" },
      ip: randomIp(),
    });
    expect(status).toBe(422);
    expect(body.errors[0].loc).toEqual(["body", "password"]);
    const login = await call(app, "/api/v1/auth/login", {
      json: { email, password: "12345" },
      ip: randomIp(),
    });
    expect(login.status).toBe(401);
  });

  it("rejects a missing field and a bad email with 422", async () => {
    const { status, body } = await call(app, "/api/v1/auth/register", {
      json: { email: "not-an-email" },
      ip: randomIp(),
    });
    expect(status).toBe(422);
    const locs = body.errors.map((e: { loc: string[] }) => e.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.email", "body.password"]));
  });

  it("answers 409 for a duplicate email, whatever its case", async () => {
    const first = await registerUser(app);
    const { status, body } = await call(app, "/api/v1/auth/register", {
      json: { email: first.email.toUpperCase(), password: "another1" },
      ip: randomIp(),
    });
    expect(status).toBe(409);
    expect(body.detail).toMatch(/already exists/);
  });

  it("stores a valid referral code and rejects an unknown one", async () => {
    const referrer = await registerUser(app);
    const referred = await registerUser(app, { referral_code: referrer.body.user.referral_code });
    const rows = (await ctx.database.db.execute(
      `select referred_by from users where id = '${referred.userId}'` as never,
    )) as unknown as { rows: { referred_by: string }[] };
    expect(rows.rows[0]!.referred_by).toBe(referrer.userId);

    const { status, body } = await call(app, "/api/v1/auth/register", {
      json: { email: randomEmail(), password: "secret1", referral_code: "NOSUCHCODE" },
      ip: randomIp(),
    });
    expect(status).toBe(422);
    expect(body.errors[0].loc).toEqual(["body", "referral_code"]);
  });

  it("rate limits the 4th registration from one IP in an hour", async () => {
    const ip = randomIp();
    for (let i = 0; i < 3; i++) {
      const registered = await t.post("/api/v1/auth/register", {
        json: { email: randomEmail(), password: "secret1" },
        ip,
      });
      expectStatus(registered, 201);
    }
    const { status, res, body } = await call(app, "/api/v1/auth/register", {
      json: { email: randomEmail(), password: "secret1" },
      ip,
    });
    expect(status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(res.headers.get("RateLimit-Limit")).toBe("3");
    expect(body.detail).toMatch(/Too many requests/);
  });
});

describe("login", () => {
  it("signs in with a JSON body and writes a usage log", async () => {
    const user = await registerUser(app);
    const login = await t.post("/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expectStatus(login, 200);
    const { body } = login;
    expect(body.user.id).toBe(user.userId);
    const stats = await t.get("/api/v1/usage/stats", { token: body.access_token });
    expectStatus(stats, 200);
    expect(stats.body.by_event).toEqual({ register: 1, login: 1 });
  });

  it("answers 401 with one message for a wrong password and an unknown email", async () => {
    const user = await registerUser(app);
    const wrong = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: "wrong-password" },
      ip: randomIp(),
    });
    const unknown = await call(app, "/api/v1/auth/login", {
      json: { email: randomEmail(), password: "whatever" },
      ip: randomIp(),
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it("rejects a form-encoded body with 422", async () => {
    const user = await registerUser(app);
    const { status, body } = await call(app, "/api/v1/auth/login", {
      body: new URLSearchParams({ email: user.email, password: user.password }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      ip: randomIp(),
    });
    expect(status).toBe(422);
    expect(body.errors[0].loc).toEqual(["body"]);
  });

  it("rejects malformed JSON with 422", async () => {
    const { status, body } = await call(app, "/api/v1/auth/login", {
      body: '{"email": "a@b.c", "password": ',
      headers: { "Content-Type": "application/json" },
      ip: randomIp(),
    });
    expect(status).toBe(422);
    expect(body.detail).toMatch(/Malformed JSON/);
  });

  it("answers 429 on the 6th login in a minute for one IP and email", async () => {
    const user = await registerUser(app);
    const ip = randomIp();
    // Right passwords, so the account's own failure budget (auth-abuse.test.ts) stays out of it.
    for (let i = 0; i < 5; i++) {
      const login = await t.post("/api/v1/auth/login", {
        json: { email: user.email, password: user.password },
        ip,
      });
      expectStatus(login, 200);
    }
    const sixth = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip,
    });
    expect(sixth.status).toBe(429);
    expect(sixth.res.headers.get("Retry-After")).toBeTruthy();
    // Another address still has its own budget.
    const other = await t.post("/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expectStatus(other, 200);
  });
});

describe("guest login", () => {
  it("issues a UUID guest identity with its own /me branch", async () => {
    const guest = await t.post("/api/v1/auth/guest", { ip: randomIp() });
    expectStatus(guest, 201);
    const { body } = guest;
    expect(body.user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const me = await t.get("/api/v1/auth/me", { token: body.access_token });
    expectStatus(me, 200);
    expect(me.body).toEqual({
      id: body.user.id,
      is_guest: true,
      name: "Guest",
      role: "user",
      plan: "free",
      credits: 0,
      created_at: expect.any(String),
      features: ["translate", "customers", "products", "quotations"],
      limits: {
        customers: { max: 1000, used: 0 },
        agent_runs_per_month: { max: 0, used: 0 },
        seats: { max: 1, used: 1 },
      },
      org: { id: expect.any(String), name: "Guest", role: "owner" },
    });
  });

  it("answers 429 on the 6th guest login from one IP in 15 minutes", async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      expectStatus(await t.post("/api/v1/auth/guest", { ip }), 201);
    }
    const sixth = await call(app, "/api/v1/auth/guest", { method: "POST", ip });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.res.headers.get("Retry-After"))).toBeGreaterThan(60);
  });
});

describe("access tokens", () => {
  it("serves /me for a valid token, by header or by cookie", async () => {
    const user = await registerUser(app);
    const byHeader = await t.get("/api/v1/auth/me", { token: user.accessToken });
    expectStatus(byHeader, 200);
    expect(byHeader.body).toMatchObject({ id: user.userId, email: user.email, credits: 30 });
    const byCookie = await t.get("/api/v1/auth/me", {
      cookies: { access_token: user.accessToken },
    });
    expectStatus(byCookie, 200);
  });

  it("answers 401 without a token and for a garbage token", async () => {
    expect((await call(app, "/api/v1/auth/me")).status).toBe(401);
    const bad = await call(app, "/api/v1/auth/me", { token: "not.a.jwt" });
    expect(bad.status).toBe(401);
    expect(bad.res.headers.get("WWW-Authenticate")).toBe("Bearer");
  });

  it("rejects alg=none", async () => {
    const user = await registerUser(app);
    const header = btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "");
    const now = Math.floor(Date.now() / 1000);
    const payload = btoa(
      JSON.stringify({
        sub: user.userId,
        sid: crypto.randomUUID(),
        iss: "trade-assistant",
        aud: "trade-assistant-api",
        iat: now,
        exp: now + 600,
      }),
    ).replace(/=+$/, "");
    const { status } = await call(app, "/api/v1/auth/me", { token: `${header}.${payload}.` });
    expect(status).toBe(401);
  });

  it("rejects an expired token", async () => {
    const user = await registerUser(app);
    const token = await forgeToken(
      { sub: user.userId },
      { exp: Math.floor(Date.now() / 1000) - 60 },
    );
    expect((await call(app, "/api/v1/auth/me", { token })).status).toBe(401);
  });

  it("rejects a non-UUID subject even when correctly signed", async () => {
    const token = await forgeToken({ sub: "1 OR 1=1" });
    expect((await call(app, "/api/v1/auth/me", { token })).status).toBe(401);
    const valid = await forgeToken({ sub: crypto.randomUUID() });
    // A well-formed token for a user that does not exist is still 401, never a 500.
    expect((await call(app, "/api/v1/auth/me", { token: valid })).status).toBe(401);
  });

  it("rejects a token signed with another key", async () => {
    const user = await registerUser(app);
    const token = await new SignJWT({ sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.userId)
      .setIssuer("trade-assistant")
      .setAudience("trade-assistant-api")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(te.encode("another-secret-another-secret-another-secret"));
    expect((await call(app, "/api/v1/auth/me", { token })).status).toBe(401);
  });
});

describe("CSRF", () => {
  it("requires a token signed for this session on C routes", async () => {
    const user = await registerUser(app);
    const patch = (extra: { csrf?: string; cookies?: Record<string, string> }) =>
      call(app, "/api/v1/users/me", {
        method: "PATCH",
        json: { company: "Ningbo Export Co." },
        token: user.accessToken,
        ...extra,
      });
    const missing = await patch({});
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toMatch(/CSRF/);

    const forged = await patch({
      csrf: "AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB",
    });
    expect(forged.status).toBe(403);

    const other = await registerUser(app);
    const stolen = await patch({ csrf: other.csrfToken });
    expect(stolen.status).toBe(403);

    const mismatch = await patch({
      csrf: user.csrfToken,
      cookies: { csrf_token: other.csrfToken },
    });
    expect(mismatch.status).toBe(403);

    const ok = await t.patch("/api/v1/users/me", {
      json: { company: "Ningbo Export Co." },
      token: user.accessToken,
      csrf: user.csrfToken,
      cookies: { csrf_token: user.csrfToken },
    });
    expectStatus(ok, 200);
    expect(account(ok.body).company).toBe("Ningbo Export Co.");
  });

  it("requires the csrf cookie when the session itself comes from a cookie", async () => {
    const user = await registerUser(app);
    const headerOnly = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      json: { name: "X" },
      cookies: { access_token: user.accessToken },
      csrf: user.csrfToken,
    });
    expect(headerOnly.status).toBe(403);
    const both = await t.patch("/api/v1/users/me", {
      json: { name: "X" },
      cookies: { access_token: user.accessToken, csrf_token: user.csrfToken },
      csrf: user.csrfToken,
    });
    expectStatus(both, 200);
  });

  it("GET /auth/csrf issues a token bound to the caller's session", async () => {
    const user = await registerUser(app);
    const issued = await t.get("/api/v1/auth/csrf", { token: user.accessToken });
    expectStatus(issued, 200);
    const { body, cookies } = issued;
    expect(cookies.csrf_token).toBe(body.csrf_token);
    const ok = await t.patch("/api/v1/users/me", {
      json: { country: "CN" },
      token: user.accessToken,
      csrf: body.csrf_token,
    });
    expectStatus(ok, 200);
    const anonymous = await t.get("/api/v1/auth/csrf");
    expectStatus(anonymous, 200);
    const rejected = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      json: { country: "CN" },
      token: user.accessToken,
      csrf: anonymous.body.csrf_token,
    });
    expect(rejected.status).toBe(403);
  });
});

describe("refresh tokens", () => {
  it("rotates, and a reused token revokes the whole family", async () => {
    const user = await registerUser(app);
    const first = await t.post("/api/v1/auth/refresh", {
      json: { refresh_token: user.refreshToken },
      ip: randomIp(),
    });
    expectStatus(first, 200);
    expect(first.body.refresh_token).not.toBe(user.refreshToken);
    expectStatus(await t.get("/api/v1/auth/me", { token: first.body.access_token }), 200);

    const replay = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: user.refreshToken },
      ip: randomIp(),
    });
    expect(replay.status).toBe(401);
    // The family is gone: even the newest token no longer refreshes.
    const after = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: first.body.refresh_token },
      ip: randomIp(),
    });
    expect(after.status).toBe(401);
  });

  it("reads the refresh cookie when no body is sent", async () => {
    const user = await registerUser(app);
    const refreshed = await t.post("/api/v1/auth/refresh", {
      cookies: { refresh_token: user.refreshToken },
      ip: randomIp(),
    });
    expectStatus(refreshed, 200);
    expect(refreshed.body.user.id).toBe(user.userId);
  });

  it("answers 401 for a missing or unknown refresh token", async () => {
    expect(
      (await call(app, "/api/v1/auth/refresh", { method: "POST", ip: randomIp() })).status,
    ).toBe(401);
    const unknown = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: "x".repeat(43) },
      ip: randomIp(),
    });
    expect(unknown.status).toBe(401);
  });
});

describe("logout", () => {
  it("revokes the session's refresh token and clears cookies", async () => {
    const user = await registerUser(app);
    const noCsrf = await call(app, "/api/v1/auth/logout", {
      method: "POST",
      token: user.accessToken,
    });
    expect(noCsrf.status).toBe(403);
    const out = await t.post("/api/v1/auth/logout", {
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expectStatus(out, 200);
    expect(out.res.headers.getSetCookie().join(";")).toMatch(/refresh_token=;/);
    const refresh = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: user.refreshToken },
      ip: randomIp(),
    });
    expect(refresh.status).toBe(401);
  });
});

describe("password change", () => {
  it("changes the password and signs out other sessions, keeping this one", async () => {
    const user = await registerUser(app);
    const other = await t.post("/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expectStatus(other, 200);
    const changed = await t.post("/api/v1/auth/password", {
      json: { old_password: user.password, new_password: "a-new-password" },
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expectStatus(changed, 200);
    const otherRefresh = await call(app, "/api/v1/auth/refresh", {
      json: { refresh_token: other.body.refresh_token },
      ip: randomIp(),
    });
    expect(otherRefresh.status).toBe(401);
    const ownRefresh = await t.post("/api/v1/auth/refresh", {
      json: { refresh_token: user.refreshToken },
      ip: randomIp(),
    });
    expectStatus(ownRefresh, 200);
    const oldLogin = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await t.post("/api/v1/auth/login", {
      json: { email: user.email, password: "a-new-password" },
      ip: randomIp(),
    });
    expectStatus(newLogin, 200);
  });

  it("rejects a wrong current password (422), a short new one (422) and no CSRF (403)", async () => {
    const user = await registerUser(app);
    const wrong = await call(app, "/api/v1/auth/password", {
      json: { old_password: "nope-nope", new_password: "a-new-password" },
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].loc).toEqual(["body", "old_password"]);
    const short = await call(app, "/api/v1/auth/password", {
      json: { old_password: user.password, new_password: "12345" },
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expect(short.status).toBe(422);
    const noCsrf = await call(app, "/api/v1/auth/password", {
      json: { old_password: user.password, new_password: "a-new-password" },
      token: user.accessToken,
    });
    expect(noCsrf.status).toBe(403);
  });

  it("answers 429 on the 4th change in 5 minutes", async () => {
    const user = await registerUser(app);
    for (let i = 0; i < 3; i++) {
      const { status } = await call(app, "/api/v1/auth/password", {
        json: { old_password: "wrong-one", new_password: "a-new-password" },
        token: user.accessToken,
        csrf: user.csrfToken,
      });
      expect(status).toBe(422);
    }
    const fourth = await call(app, "/api/v1/auth/password", {
      json: { old_password: user.password, new_password: "a-new-password" },
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expect(fourth.status).toBe(429);
  });

  it("refuses guests, who have no password", async () => {
    const guest = await t.post("/api/v1/auth/guest", { ip: randomIp() });
    expectStatus(guest, 201);
    const { status } = await call(app, "/api/v1/auth/password", {
      json: { old_password: "anything", new_password: "a-new-password" },
      token: guest.body.access_token,
      csrf: guest.body.csrf_token,
    });
    expect(status).toBe(403);
  });
});

describe("password hashes made with older parameters", () => {
  it("are replaced with the current parameters at the next login, and the password still works", async () => {
    const email = randomEmail();
    const password = "rehash-me-1";
    const user = await registerUser(app, { email, password });
    // As an older release would have stored it: argon2id with t=3.
    const old = await argon2.hash(password, { algorithm: 2, timeCost: 3, memoryCost: 19456 });
    await ctx.database.db.execute(
      sql`update users set password_hash = ${old} where id = ${user.userId}`,
    );
    const storedHash = async () =>
      (
        (await ctx.database.db.execute(
          sql`select password_hash from users where id = ${user.userId}`,
        )) as unknown as { rows: { password_hash: string }[] }
      ).rows[0]!.password_hash;

    const wrong = await call(app, "/api/v1/auth/login", {
      json: { email, password: "not-it-at-all" },
      ip: randomIp(),
    });
    expect(wrong.status).toBe(401);
    expect(await storedHash()).toBe(old);

    const login = await t.post("/api/v1/auth/login", {
      json: { email, password },
      ip: randomIp(),
    });
    expectStatus(login, 200);
    const fresh = await storedHash();
    expect(fresh).not.toBe(old);
    expect(fresh).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(needsRehash(fresh)).toBe(false);
    const again = await t.post("/api/v1/auth/login", {
      json: { email, password },
      ip: randomIp(),
    });
    expectStatus(again, 200);
    expect(await storedHash()).toBe(fresh);
  });
});
