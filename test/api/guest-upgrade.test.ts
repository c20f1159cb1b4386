import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import {
  type ApiOptions,
  call,
  expectStatus,
  type Operation,
  randomEmail,
  randomIp,
  registerUser,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;

// The success paths, typed by the OpenAPI document (ADR 0095); error paths stay on `call()`.
const t = typed(app);

async function guest() {
  const res = await t.post("/api/v1/auth/guest", { ip: randomIp() });
  expectStatus(res, 201);
  return {
    id: res.body.user.id,
    token: res.body.access_token,
    cookies: res.cookies,
  };
}

async function addCustomer(token: string, company: string) {
  const res = await t.post("/api/v1/customers", { token, json: { company } });
  expectStatus(res, 201);
  return res.body.id;
}

async function companies(token: string) {
  const res = await t.get("/api/v1/customers", { token });
  expectStatus(res, 200);
  return res.body.items.map((c) => c.company).sort();
}

async function ledgerMatchesBalance(userId: string) {
  const [row] = await queryRows<{ balance: number; ledger: number; lots: number }>(
    deps.db,
    sql`select c.balance,
          (select coalesce(sum(delta), 0)::int from credit_ledger where user_id = c.user_id) as ledger,
          (select coalesce(sum(remaining), 0)::int from credit_lots where user_id = c.user_id) as lots
        from user_credits c where c.user_id = ${userId}`,
  );
  return row!;
}

type RegisterBody = NonNullable<ApiOptions<Operation<"/api/v1/auth/register", "post">>["json"]>;
const register = (
  json: RegisterBody,
  options: { token?: string; cookies?: Record<string, string>; csrf?: string } = {},
) => t.post("/api/v1/auth/register", { json, ip: randomIp(), ...options });

describe("a guest who registers", () => {
  it("becomes the account: same id, its customers kept, no longer a guest", async () => {
    const g = await guest();
    const customerId = await addCustomer(g.token, "Guest Trading Co");
    const email = randomEmail();
    const res = await register({ email, password: "secret123", name: "Ada" }, { token: g.token });
    expectStatus(res, 201);
    expect(res.body.user).toMatchObject({
      id: g.id,
      email,
      name: "Ada",
      is_guest: false,
      plan: "pro",
      credits: 30,
    });
    const token = res.body.access_token;
    const me = await t.get("/api/v1/auth/me", { token });
    expectStatus(me, 200);
    expect(me.body).toMatchObject({ id: g.id, is_guest: false, email });
    expect(await companies(token)).toEqual(["Guest Trading Co"]);
    const one = await t.get("/api/v1/customers/{id}", { token, params: { id: customerId } });
    expectStatus(one, 200);
    // Registration credits went through the ledger, on top of the guest's zero balance.
    expect(await ledgerMatchesBalance(g.id)).toEqual({ balance: 30, ledger: 30, lots: 30 });
    // The guest's own session ended; the account signs in with its password.
    expect((await call(app, "/api/v1/auth/me", { token: g.token })).status).toBe(401);
    const login = await t.post("/api/v1/auth/login", {
      json: { email, password: "secret123" },
      ip: randomIp(),
    });
    expectStatus(login, 200);
    expect(login.body.user.id).toBe(g.id);
  });

  it("upgrades through the access_token cookie only with the CSRF token of that session", async () => {
    const g = await guest();
    await addCustomer(g.token, "Cookie Guest Ltd");
    const cookies = { access_token: g.cookies.access_token!, csrf_token: g.cookies.csrf_token! };
    // The cookie alone (what a cross-site form could ride on) is ignored: a separate account.
    const plain = await register({ email: randomEmail(), password: "secret123" }, { cookies });
    expectStatus(plain, 201);
    expect(plain.body.user.id).not.toBe(g.id);
    expect(await companies(plain.body.access_token)).toEqual([]);
    // With the session's CSRF token, the guest becomes the account.
    const upgraded = await register(
      { email: randomEmail(), password: "secret123" },
      { cookies, csrf: g.cookies.csrf_token },
    );
    expectStatus(upgraded, 201);
    expect(upgraded.body.user.id).toBe(g.id);
    expect(await companies(upgraded.body.access_token)).toEqual(["Cookie Guest Ltd"]);
  });

  it("keeps a referral code (recorded, rewarded on verification) and refuses a taken e-mail", async () => {
    const referrer = await registerUser(app);
    const g = await guest();
    const res = await register(
      {
        email: randomEmail(),
        password: "secret123",
        referral_code: referrer.body.user.referral_code,
      },
      { token: g.token },
    );
    expectStatus(res, 201);
    const [row] = await queryRows<{ referred_by: string; is_guest: boolean }>(
      deps.db,
      sql`select referred_by, is_guest from users where id = ${g.id}`,
    );
    expect(row).toEqual({ referred_by: referrer.userId, is_guest: false });

    const other = await guest();
    const taken = await register(
      { email: referrer.email, password: "secret123" },
      { token: other.token },
    );
    expect(taken.status).toBe(409);
    const [still] = await queryRows<{ is_guest: boolean; email: string | null }>(
      deps.db,
      sql`select is_guest, email from users where id = ${other.id}`,
    );
    expect(still).toEqual({ is_guest: true, email: null });
  });
});

describe("a guest who logs in to an existing account", () => {
  it("hands every row it created to the account and is disabled", async () => {
    const account = await registerUser(app);
    await addCustomer(account.accessToken, "Account Customer");
    const own = await t.post("/api/v1/products", {
      token: account.accessToken,
      json: { name: "Account widget", sku: "W-1" },
    });
    expectStatus(own, 201);

    const g = await guest();
    const guestCustomer = await addCustomer(g.token, "Guest Customer");
    const clash = await t.post("/api/v1/products", {
      token: g.token,
      json: { name: "Guest widget", sku: "W-1" },
    });
    expectStatus(clash, 201);
    const quote = await t.post("/api/v1/quotations", {
      token: g.token,
      json: {
        customer_id: guestCustomer,
        currency: "USD",
        items: [{ name: "Guest widget", quantity: 2, unit_price: 500 }],
      },
    });
    expectStatus(quote, 201);

    const res = await t.post("/api/v1/auth/login", {
      json: { email: account.email, password: account.password },
      token: g.token,
      ip: randomIp(),
    });
    expectStatus(res, 200);
    expect(res.body.user.id).toBe(account.userId);
    const token = res.body.access_token;
    expect(await companies(token)).toEqual(["Account Customer", "Guest Customer"]);
    const products = await t.get("/api/v1/products", { token });
    expectStatus(products, 200);
    expect(products.body.items.map((p) => [p.name, p.sku]).sort()).toEqual([
      ["Account widget", "W-1"],
      ["Guest widget", null], // its SKU was taken in the account
    ]);
    const moved = await t.get("/api/v1/quotations/{id}", { token, params: { id: quote.body.id } });
    expectStatus(moved, 200);
    expect(moved.body.customer_id).toBe(guestCustomer);

    const [guestRow] = await queryRows<{ status: string; n: number }>(
      deps.db,
      sql`select status, (select count(*)::int from customers where user_id = ${g.id}) as n
          from users where id = ${g.id}`,
    );
    expect(guestRow).toEqual({ status: "disabled", n: 0 });
    expect((await call(app, "/api/v1/auth/me", { token: g.token })).status).toBe(401);
  });

  it("cannot carry an account past its plan's customers limit: 403, nothing moves", async () => {
    const account = await registerUser(app);
    await deps.db.execute(
      sql`update orgs set plan = 'free', plan_expires_at = null
          where id = (select org_id from org_members where user_id = ${account.userId})`,
    );
    await deps.db.execute(
      sql`insert into customers (user_id, company)
          select ${account.userId}, 'Kept ' || g from generate_series(1, 999) g`,
    );
    const g = await guest();
    await addCustomer(g.token, "Guest One");
    await addCustomer(g.token, "Guest Two");
    const res = await call(app, "/api/v1/auth/login", {
      json: { email: account.email, password: account.password },
      token: g.token,
      ip: randomIp(),
    });
    expect(res.status).toBe(403);
    expect(res.body.limit).toBe("customers");
    expect(await companies(g.token)).toEqual(["Guest One", "Guest Two"]);
    const [usage] = await queryRows<{ customers: number }>(
      deps.db,
      sql`select customers from org_usage
          where org_id = (select org_id from org_members where user_id = ${account.userId})`,
    );
    expect(usage!.customers).toBe(999);
  });

  it("moves nothing when the password is wrong", async () => {
    const account = await registerUser(app);
    const g = await guest();
    await addCustomer(g.token, "Still The Guest's");
    const res = await call(app, "/api/v1/auth/login", {
      json: { email: account.email, password: "not-the-password" },
      token: g.token,
      ip: randomIp(),
    });
    expect(res.status).toBe(401);
    expect(await companies(g.token)).toEqual(["Still The Guest's"]);
  });
});

describe("tokens that are not the caller's guest", () => {
  it("a real account's token is ignored: registering creates a new account, nothing moves", async () => {
    const victim = await registerUser(app);
    await addCustomer(victim.accessToken, "Victim Customer");
    const res = await register(
      { email: randomEmail(), password: "secret123" },
      { token: victim.accessToken },
    );
    expectStatus(res, 201);
    expect(res.body.user.id).not.toBe(victim.userId);
    expect(await companies(res.body.access_token)).toEqual([]);
    expect(await companies(victim.accessToken)).toEqual(["Victim Customer"]);
    const [row] = await queryRows<{ email: string; is_guest: boolean }>(
      deps.db,
      sql`select email, is_guest from users where id = ${victim.userId}`,
    );
    expect(row).toEqual({ email: victim.email, is_guest: false });
  });

  it("a real account's token cannot pull that account's rows into another on login", async () => {
    const victim = await registerUser(app);
    await addCustomer(victim.accessToken, "Victim Only");
    const attacker = await registerUser(app);
    const res = await t.post("/api/v1/auth/login", {
      json: { email: attacker.email, password: attacker.password },
      token: victim.accessToken,
      ip: randomIp(),
    });
    expectStatus(res, 200);
    expect(await companies(res.body.access_token)).toEqual([]);
    expect(await companies(victim.accessToken)).toEqual(["Victim Only"]);
    expectStatus(await t.get("/api/v1/auth/me", { token: victim.accessToken }), 200);
  });

  it("invalid, foreign and already used guest tokens never cause a 500", async () => {
    for (const token of ["garbage", "a.b.c", `${(await guest()).token}x`]) {
      const res = await register({ email: randomEmail(), password: "secret123" }, { token });
      expect(res.status).toBe(201);
    }
    const g = await guest();
    const first = await register(
      { email: randomEmail(), password: "secret123" },
      { token: g.token },
    );
    expectStatus(first, 201);
    expect(first.body.user.id).toBe(g.id);
    // The same guest token again: its session has ended, so this is a plain registration.
    const again = await register(
      { email: randomEmail(), password: "secret123" },
      { token: g.token },
    );
    expectStatus(again, 201);
    expect(again.body.user.id).not.toBe(g.id);
    const login = await call(app, "/api/v1/auth/login", {
      json: { email: randomEmail(), password: "whatever" },
      token: "garbage",
      ip: randomIp(),
    });
    expect(login.status).toBe(401);
  });
});
