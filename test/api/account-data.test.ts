import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { startFakeSmtp } from "../fakes/smtp";
import {
  call,
  expectStatus,
  randomEmail,
  randomIp,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";
import { joinOrg, orgIdOf } from "../support/orgs";

// DELETE /api/v1/users/me and GET /api/v1/users/me/export (API.md "Trade documents and account
// data", ADR 0107).

const smtp = await startFakeSmtp();
afterAll(() => smtp.close());
const ctx = await createTestContext({
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: "Trade <no-reply@trade.example>" }) },
});
const { app, database } = ctx;
const db = database.db;

const del = (user: Session, json: unknown) =>
  call(app, "/api/v1/users/me", {
    method: "DELETE",
    token: user.accessToken,
    csrf: user.csrfToken,
    json,
  });

async function one<T>(query: ReturnType<typeof sql>) {
  const [row] = await queryRows<T>(db, query);
  return row;
}
const count = async (query: ReturnType<typeof sql>) =>
  (await one<{ n: number }>(sql`select count(*)::int as n from (${query}) x`))!.n;

/** A seller with a customer, a product (a member's catalogue is the manager's), a quotation and a follow-up. */
async function seller(user?: Session) {
  const me = user ?? (await registerUser(app, { name: "Li Wei" }));
  const t = typed(app);
  if (user) {
    const customer = await t.post("/api/v1/customers", {
      token: me.accessToken,
      json: { company: `Acme ${me.userId.slice(0, 6)}` },
    });
    expectStatus(customer, 201);
    const quotation = await t.post("/api/v1/quotations", {
      token: me.accessToken,
      json: {
        customer_id: customer.body.id,
        currency: "USD",
        items: [{ name: "Flask", quantity: 10, unit_price: 1299 }],
      },
    });
    expectStatus(quotation, 201);
    return { user: me, customerId: customer.body.id as string, quotationId: quotation.body.id };
  }
  const customer = await t.post("/api/v1/customers", {
    token: me.accessToken,
    json: { company: `Acme ${me.userId.slice(0, 6)}`, email: "anna@acme.example" },
  });
  expectStatus(customer, 201);
  const product = await t.post("/api/v1/products", {
    token: me.accessToken,
    json: { name: "Vacuum flask", price: 1299, currency: "USD" },
  });
  expectStatus(product, 201);
  const quotation = await t.post("/api/v1/quotations", {
    token: me.accessToken,
    json: {
      customer_id: customer.body.id,
      currency: "USD",
      items: [{ product_id: product.body.id, quantity: 10 }],
    },
  });
  expectStatus(quotation, 201);
  const followup = await call(app, `/api/v1/customers/${customer.body.id}/followups`, {
    token: me.accessToken,
    json: { channel: "email", note: "Sent the catalogue" },
  });
  expect(followup.status).toBe(201);
  return { user: me, customerId: customer.body.id as string, quotationId: quotation.body.id };
}

describe("GET /users/me/export", () => {
  it("a zip of JSON and CSV files of every record the caller holds, no secrets; audited", async () => {
    const { user, customerId, quotationId } = await seller();
    const res = await app.request("/api/v1/users/me/export", {
      headers: { Authorization: `Bearer ${user.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="account-export-/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "README.txt",
        "profile.json",
        "customers.json",
        "customers.csv",
        "quotations.json",
        "quotation_items.json",
        "followups.json",
        "credit_ledger.json",
        "credit_ledger.csv",
        "payments.json",
      ]),
    );
    const json = (name: string) => JSON.parse(strFromU8(files[name]!)) as Record<string, any>[];
    const [profile] = json("profile.json");
    expect(profile).toMatchObject({ id: user.userId, email: user.email, name: "Li Wei" });
    expect(profile).not.toHaveProperty("password_hash");
    expect(JSON.stringify(json("profile.json"))).not.toContain("argon2");
    expect(json("customers.json").map((c) => c.id)).toEqual([customerId]);
    expect(json("quotations.json").map((q) => q.id)).toEqual([quotationId]);
    expect(json("quotation_items.json")).toHaveLength(1);
    expect(json("followups.json")[0]).toMatchObject({ note: "Sent the catalogue" });
    // The registration grant is on the ledger.
    expect(json("credit_ledger.json").length).toBeGreaterThan(0);
    const csv = strFromU8(files["customers.csv"]!);
    expect(csv.split("\r\n")[0]).toContain("company");
    expect(csv).toContain(customerId);
    // A cell a spreadsheet would run as a formula is text in the CSV.
    const notes = strFromU8(files["followups.csv"]!);
    expect(notes).toContain("Sent the catalogue");
    const formula = await call(app, `/api/v1/customers/${customerId}/followups`, {
      token: user.accessToken,
      json: { channel: "other", note: '=HYPERLINK("http://evil.example")' },
    });
    expect(formula.status).toBe(201);
    const again = unzipSync(
      new Uint8Array(
        await (
          await app.request("/api/v1/users/me/export", {
            headers: { Authorization: `Bearer ${user.accessToken}` },
          })
        ).arrayBuffer(),
      ),
    );
    expect(strFromU8(again["followups.csv"]!)).toContain(`"'=HYPERLINK(""http://evil.example"")"`);

    const audit = await one<{ action: string; actor_id: string }>(
      sql`select action, actor_id from admin_audit_log
          where action = 'user.export' and target_id = ${user.userId}`,
    );
    expect(audit).toMatchObject({ action: "user.export", actor_id: user.userId });
  });

  it("needs a token", async () => {
    expect((await call(app, "/api/v1/users/me/export")).status).toBe(401);
  });
});

describe("DELETE /users/me", () => {
  it("with the password: the data goes, the ledger stays with the anonymised account, every session ends; audited", async () => {
    const { user, customerId, quotationId } = await seller();
    const ledgerBefore = await count(
      sql`select 1 from credit_ledger where user_id = ${user.userId}::uuid`,
    );
    expect(ledgerBefore).toBeGreaterThan(0);

    const wrong = await del(user, { password: "not-the-password" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].loc).toEqual(["body", "password"]);
    expect((await del(user, {})).status).toBe(422);

    const res = await del(user, { password: user.password });
    expect(res.status).toBe(204);

    // The session is over, and so is the password.
    expect((await call(app, "/api/v1/auth/me", { token: user.accessToken })).status).toBe(401);
    const login = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expect(login.status).toBe(401);
    const refreshed = await call(app, "/api/v1/auth/refresh", {
      cookies: { refresh_token: user.refreshToken },
      json: {},
    });
    expect(refreshed.status).toBe(401);

    const row = await one<Record<string, unknown>>(
      sql`select email, password_hash, name, status from users where id = ${user.userId}::uuid`,
    );
    expect(row).toEqual({ email: null, password_hash: null, name: null, status: "disabled" });
    expect(await count(sql`select 1 from customers where id = ${customerId}::uuid`)).toBe(0);
    expect(await count(sql`select 1 from quotations where id = ${quotationId}::uuid`)).toBe(0);
    expect(await count(sql`select 1 from followup_logs where user_id = ${user.userId}::uuid`)).toBe(
      0,
    );
    expect(await count(sql`select 1 from products where user_id = ${user.userId}::uuid`)).toBe(0);
    // Money records stay.
    expect(await count(sql`select 1 from credit_ledger where user_id = ${user.userId}::uuid`)).toBe(
      ledgerBefore,
    );
    const audit = await one<{ actor_id: string }>(
      sql`select actor_id from admin_audit_log where action = 'user.delete' and target_id = ${user.userId}`,
    );
    expect(audit?.actor_id).toBe(user.userId);

    // The address is free again.
    const again = await registerUser(app, { email: user.email });
    expect(again.userId).not.toBe(user.userId);
  });

  it("the owner of an organisation with other members transfers ownership first (409)", async () => {
    const owner = await registerUser(app);
    const member = await registerUser(app);
    await joinOrg(database, owner, member, "member");
    const res = await del(owner, { password: owner.password });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/transfer ownership/);
    expect((await call(app, "/api/v1/auth/me", { token: owner.accessToken })).status).toBe(200);
  });

  it("a member of a company: their customers go to the pool, the company keeps its records", async () => {
    const owner = await registerUser(app);
    const member = await registerUser(app);
    await joinOrg(database, owner, member, "member");
    const company = await orgIdOf(database, owner);
    const { customerId, quotationId } = await seller(member);
    const res = await del(member, { password: member.password });
    expect(res.status).toBe(204);
    const customer = await one<{ user_id: string | null; org_id: string }>(
      sql`select user_id, org_id from customers where id = ${customerId}::uuid`,
    );
    expect(customer).toEqual({ user_id: null, org_id: company });
    expect(await count(sql`select 1 from quotations where id = ${quotationId}::uuid`)).toBe(1);
    expect((await call(app, "/api/v1/auth/me", { token: owner.accessToken })).status).toBe(200);
  });

  it("an account without a password confirms with a mailed code", async () => {
    const user = await registerUser(app, { email: randomEmail() });
    await db.execute(sql`update users set password_hash = null where id = ${user.userId}::uuid`);
    expect((await del(user, {})).status).toBe(422);

    const sent = await call(app, "/api/v1/users/me/deletion-code", {
      token: user.accessToken,
      csrf: user.csrfToken,
      json: {},
    });
    expect(sent.status).toBe(202);
    const mail = await smtp.waitFor(
      (m) => m.envelopeTo.includes(user.email.toLowerCase()) && m.subject.includes("deletion code"),
    );
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    const wrongCode = code === "000000" ? "000001" : "000000";
    expect((await del(user, { code: wrongCode })).status).toBe(422);
    expect((await del(user, { code })).status).toBe(204);
    expect((await call(app, "/api/v1/auth/me", { token: user.accessToken })).status).toBe(401);
  });

  it("a guest session has no account to delete (403 guest_not_allowed)", async () => {
    const guest = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
    expect(guest.status).toBe(201);
    const res = await call(app, "/api/v1/users/me", {
      method: "DELETE",
      token: guest.body.access_token,
      csrf: guest.body.csrf_token,
      json: {},
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("guest_not_allowed");
  });

  it("an account with a password gets no code (409), and CSRF is required", async () => {
    const user = await registerUser(app);
    const sent = await call(app, "/api/v1/users/me/deletion-code", {
      token: user.accessToken,
      csrf: user.csrfToken,
      json: {},
    });
    expect(sent.status).toBe(409);
    const noCsrf = await call(app, "/api/v1/users/me", {
      method: "DELETE",
      token: user.accessToken,
      json: { password: user.password },
    });
    expect(noCsrf.status).toBe(403);
  });
});
