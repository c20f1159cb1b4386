import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingMail } from "../../src/modules/account/service";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { startFakeSmtp, tokenOf } from "../fakes/smtp";
import { startFakeWechat } from "../fakes/wechat";
import {
  call,
  expectStatus,
  randomEmail,
  randomIp,
  registerUser,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * WeChat accounts are whole accounts (docs/adr/0089): a guest who signs in with WeChat keeps
 * its id and data, and a WeChat-only account can add a verified address and a first password.
 */

const FRONTEND = "https://app.trade.example";
const smtp = await startFakeSmtp();
const wechat = await startFakeWechat();
afterAll(async () => {
  await pendingMail();
  await Promise.all([smtp.close(), wechat.close()]);
});
const ctx = await createTestContext({
  env: {
    FRONTEND_URL: FRONTEND,
    WECHAT_APP_ID: wechat.appId,
    WECHAT_APP_SECRET: wechat.appSecret,
    WECHAT_API_BASE: wechat.url,
  },
  runtime: {
    mailer: createSmtpMailer({ url: smtp.url, from: "Trade Assistant <no-reply@trade.example>" }),
  },
});
const { app, deps } = ctx;

const newOpenid = () => `o${crypto.randomUUID().replaceAll("-", "")}`;

interface Caller {
  token?: string;
  cookies?: Record<string, string>;
  csrf?: string;
}

const wechatLogin = (code: string, as: Caller = {}) =>
  call(app, "/api/v1/auth/wechat/login", { json: { code }, ip: randomIp(), ...as });

// guest(), addCustomer() and companies() are typed by the OpenAPI document (ADR 0095).
async function guest() {
  const res = await typed(app).post("/api/v1/auth/guest", { ip: randomIp() });
  expectStatus(res, 201);
  return {
    id: res.body.user.id,
    token: res.body.access_token,
    cookies: res.cookies,
  };
}

async function addCustomer(token: string, company: string) {
  const res = await typed(app).post("/api/v1/customers", { token, json: { company } });
  expectStatus(res, 201);
  return res.body.id;
}

async function companies(token: string) {
  const res = await typed(app).get("/api/v1/customers", { token });
  expectStatus(res, 200);
  return res.body.items.map((c) => c.company).sort();
}

async function userRow(id: string) {
  const [row] = await queryRows<{
    is_guest: boolean;
    status: string;
    wechat_openid: string | null;
    email: string | null;
    password_hash: string | null;
  }>(
    deps.db,
    sql`select is_guest, status, wechat_openid, email, password_hash from users where id = ${id}`,
  );
  return row!;
}

async function balanceAndLedger(userId: string) {
  const [row] = await queryRows<{ balance: number; ledger: number }>(
    deps.db,
    sql`select c.balance,
          (select coalesce(sum(delta), 0)::int from credit_ledger where user_id = c.user_id) as ledger
        from user_credits c where c.user_id = ${userId}`,
  );
  return row!;
}

describe("a guest who signs in with WeChat, an openid no account has", () => {
  it("becomes the WeChat account: same id, its customers kept, no longer a guest", async () => {
    const g = await guest();
    await addCustomer(g.token, "Guest Trading Co");
    const openid = newOpenid();
    const res = await wechatLogin(wechat.issueCode(openid, "union-g"), { token: g.token });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: g.id,
      is_guest: false,
      has_wechat: true,
      plan: "pro",
      credits: 30,
      is_trial_active: true,
      name: "WeChat user",
    });
    const token = res.body.access_token;
    expect(await companies(token)).toEqual(["Guest Trading Co"]);
    expect(await userRow(g.id)).toMatchObject({
      is_guest: false,
      status: "active",
      wechat_openid: openid,
    });
    // The registration credits went through the ledger once.
    expect(await balanceAndLedger(g.id)).toEqual({ balance: 30, ledger: 30 });
    // The guest's own session ended; the WeChat user signs in to the same id from now on.
    expect((await call(app, "/api/v1/auth/me", { token: g.token })).status).toBe(401);
    const again = await wechatLogin(wechat.issueCode(openid));
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(g.id);
    expect(again.body.user.credits).toBe(30);
  });

  it("upgrades through the access_token cookie only with that session's CSRF token", async () => {
    const g = await guest();
    await addCustomer(g.token, "Cookie Guest Ltd");
    const cookies = { access_token: g.cookies.access_token!, csrf_token: g.cookies.csrf_token! };
    // The cookie alone (what a cross-site form could ride on) is ignored: a separate account.
    const plain = await wechatLogin(wechat.issueCode(newOpenid()), { cookies });
    expect(plain.status).toBe(200);
    expect(plain.body.user.id).not.toBe(g.id);
    expect(await companies(plain.body.access_token)).toEqual([]);
    expect((await userRow(g.id)).is_guest).toBe(true);

    const upgraded = await wechatLogin(wechat.issueCode(newOpenid()), {
      cookies,
      csrf: g.cookies.csrf_token,
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.user.id).toBe(g.id);
    expect(await companies(upgraded.body.access_token)).toEqual(["Cookie Guest Ltd"]);
  });

  it("an invalid code changes nothing: the guest stays a guest with its data", async () => {
    const g = await guest();
    await addCustomer(g.token, "Still Mine");
    const res = await wechatLogin("never-issued", { token: g.token });
    expect(res.status).toBe(401);
    expect(await userRow(g.id)).toMatchObject({ is_guest: true, wechat_openid: null });
    expect(await companies(g.token)).toEqual(["Still Mine"]);
  });

  it("two concurrent logins of one guest make one account, credited once", async () => {
    const g = await guest();
    await addCustomer(g.token, "Raced Ltd");
    const openid = newOpenid();
    const results = await Promise.all(
      [1, 2, 3].map(() => wechatLogin(wechat.issueCode(openid), { token: g.token })),
    );
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(g.id);
    }
    const [owners] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from users where wechat_openid = ${openid}`,
    );
    expect(owners!.n).toBe(1);
    expect(await balanceAndLedger(g.id)).toEqual({ balance: 30, ledger: 30 });
    expect(await companies(results[0]!.body.access_token)).toEqual(["Raced Ltd"]);
  });

  it("two guests racing for one new openid: one becomes it, the other's data moves to it", async () => {
    const [a, b] = [await guest(), await guest()];
    await addCustomer(a.token, "Device A");
    await addCustomer(b.token, "Device B");
    const openid = newOpenid();
    const [ra, rb] = await Promise.all([
      wechatLogin(wechat.issueCode(openid), { token: a.token }),
      wechatLogin(wechat.issueCode(openid), { token: b.token }),
    ]);
    expect(ra!.status).toBe(200);
    expect(rb!.status).toBe(200);
    expect(ra!.body.user.id).toBe(rb!.body.user.id);
    expect([a.id, b.id]).toContain(ra!.body.user.id);
    expect(await companies(ra!.body.access_token)).toEqual(["Device A", "Device B"]);
    const [owners] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from users where wechat_openid = ${openid}`,
    );
    expect(owners!.n).toBe(1);
  });
});

describe("a guest who signs in with WeChat, an openid that has an account", () => {
  it("signs into that account; the guest's rows move there and the guest is disabled", async () => {
    const openid = newOpenid();
    const owner = await wechatLogin(wechat.issueCode(openid));
    expect(owner.status).toBe(200);
    await addCustomer(owner.body.access_token, "Account Customer");

    const g = await guest();
    await addCustomer(g.token, "Guest Customer");
    const res = await wechatLogin(wechat.issueCode(openid), { token: g.token });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(owner.body.user.id);
    expect(res.body.user.credits).toBe(30);
    expect(await companies(res.body.access_token)).toEqual(["Account Customer", "Guest Customer"]);
    expect(await userRow(g.id)).toMatchObject({ status: "disabled", wechat_openid: null });
    expect((await call(app, "/api/v1/auth/me", { token: g.token })).status).toBe(401);
    // The account's own session is untouched.
    expect((await call(app, "/api/v1/auth/me", { token: owner.body.access_token })).status).toBe(
      200,
    );
  });

  it("cannot carry the account past its plan's customers limit: 403, nothing moves", async () => {
    const openid = newOpenid();
    const owner = await wechatLogin(wechat.issueCode(openid));
    const ownerId = owner.body.user.id as string;
    await deps.db.execute(
      sql`update orgs set plan = 'free', plan_expires_at = null
          where id = (select org_id from org_members where user_id = ${ownerId})`,
    );
    await deps.db.execute(
      sql`insert into customers (user_id, company)
          select ${ownerId}, 'Kept ' || g from generate_series(1, 999) g`,
    );
    const g = await guest();
    await addCustomer(g.token, "Guest One");
    await addCustomer(g.token, "Guest Two");
    const res = await wechatLogin(wechat.issueCode(openid), { token: g.token });
    expect(res.status).toBe(403);
    expect(res.body.limit).toBe("customers");
    expect(await companies(g.token)).toEqual(["Guest One", "Guest Two"]);
    expect(await userRow(g.id)).toMatchObject({ is_guest: true, status: "active" });
  });

  it("a disabled account is 403 and the guest keeps everything", async () => {
    const openid = newOpenid();
    const owner = await wechatLogin(wechat.issueCode(openid));
    await deps.db.execute(
      sql`update users set status = 'disabled' where id = ${owner.body.user.id}`,
    );
    const g = await guest();
    await addCustomer(g.token, "Guest Keeps This");
    const res = await wechatLogin(wechat.issueCode(openid), { token: g.token });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/disabled/);
    expect(await userRow(g.id)).toMatchObject({ is_guest: true, status: "active" });
    expect(await companies(g.token)).toEqual(["Guest Keeps This"]);
  });
});

describe("tokens that are not the caller's guest", () => {
  it("a real account's token is ignored: nothing moves, the account gets no openid", async () => {
    const victim = await registerUser(app);
    await addCustomer(victim.accessToken, "Victim Customer");
    const res = await wechatLogin(wechat.issueCode(newOpenid()), { token: victim.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.user.id).not.toBe(victim.userId);
    expect(await companies(res.body.access_token)).toEqual([]);
    expect(await companies(victim.accessToken)).toEqual(["Victim Customer"]);
    expect((await userRow(victim.userId)).wechat_openid).toBeNull();
  });

  it("a guest's token cannot pull a WeChat account's data without that WeChat user's code", async () => {
    const openid = newOpenid();
    const owner = await wechatLogin(wechat.issueCode(openid));
    await addCustomer(owner.body.access_token, "Owner Only");
    const g = await guest();
    // Someone else's code: the guest becomes that other WeChat user's account, never the owner's.
    const res = await wechatLogin(wechat.issueCode(newOpenid()), { token: g.token });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(g.id);
    expect(await companies(res.body.access_token)).toEqual([]);
    expect(await companies(owner.body.access_token)).toEqual(["Owner Only"]);
  });
});

// --- A WeChat-only account adds an address and a first password ---

/** The next mail to `address` with a verify-email link, after `after` messages. */
const mailTo = (address: string, after = 0) =>
  smtp.waitFor(
    (m) =>
      smtp.messages.indexOf(m) >= after &&
      m.envelopeTo.includes(address.toLowerCase()) &&
      m.links.some((l) => l.startsWith(`${FRONTEND}/verify-email?token=`)),
  );

async function wechatAccount() {
  const openid = newOpenid();
  const res = await wechatLogin(wechat.issueCode(openid));
  expect(res.status).toBe(200);
  return {
    openid,
    id: res.body.user.id as string,
    token: res.body.access_token as string,
    csrf: res.body.csrf_token as string,
  };
}

const addEmail = (
  s: { token: string; csrf: string },
  json: { new_email: string; password: string; wechat_code?: string },
) => call(app, "/api/v1/auth/email", { token: s.token, csrf: s.csrf, json });
const passwordLogin = (email: string, password: string) =>
  call(app, "/api/v1/auth/login", { json: { email, password }, ip: randomIp() });

describe("a WeChat-only account adds an e-mail address and a first password", () => {
  it("both take effect once the address is verified; then e-mail login works", async () => {
    const w = await wechatAccount();
    const email = randomEmail();
    const before = smtp.messages.length;
    const res = await addEmail(w, {
      new_email: email,
      password: "first-secret",
      wechat_code: wechat.issueCode(w.openid),
    });
    expect(res.status).toBe(202);
    expect(res.body.detail).toMatch(/password take effect once it is used/);
    // Nothing changed yet: no address, no password, no e-mail login.
    expect(await userRow(w.id)).toMatchObject({ email: null, password_hash: null });
    expect((await passwordLogin(email, "first-secret")).status).toBe(401);

    const mail = await mailTo(email, before);
    // The token carries a hash, never the password.
    const [stored] = await queryRows<{ password_hash: string }>(
      deps.db,
      sql`select password_hash from email_tokens where user_id = ${w.id} and purpose = 'change_email'`,
    );
    expect(stored!.password_hash).toMatch(/^\$argon2id\$/);
    const verified = await call(app, "/api/v1/auth/verify-email", {
      json: { token: tokenOf(mail) },
      ip: randomIp(),
      token: w.token,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ email, email_verified: true });

    const me = await call(app, "/api/v1/auth/me", { token: w.token });
    expect(me.body).toMatchObject({ id: w.id, email, email_verified: true, has_wechat: true });
    const login = await passwordLogin(email, "first-secret");
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(w.id);
    // WeChat still signs in to the same account.
    expect((await wechatLogin(wechat.issueCode(w.openid))).body.user.id).toBe(w.id);
    // From now on it is an account with a password: the next change needs it.
    const next = await addEmail(
      { token: login.body.access_token, csrf: login.body.csrf_token },
      { new_email: randomEmail(), password: "wrong-one" },
    );
    expect(next.status).toBe(422);
    expect(next.body.errors[0].loc).toEqual(["body", "password"]);
  });

  it("using the link ends the account's other sessions (a thief's included)", async () => {
    const w = await wechatAccount();
    const other = await wechatLogin(wechat.issueCode(w.openid));
    const email = randomEmail();
    const before = smtp.messages.length;
    expect(
      (
        await addEmail(w, {
          new_email: email,
          password: "first-secret",
          wechat_code: wechat.issueCode(w.openid),
        })
      ).status,
    ).toBe(202);
    const verified = await call(app, "/api/v1/auth/verify-email", {
      json: { token: tokenOf(await mailTo(email, before)) },
      ip: randomIp(),
      token: w.token,
    });
    expect(verified.body.sessions_ended).toBe(1);
    expect((await call(app, "/api/v1/auth/me", { token: other.body.access_token })).status).toBe(
      401,
    );
    expect((await call(app, "/api/v1/auth/me", { token: w.token })).status).toBe(200);
  });

  it("a stolen session alone cannot set it: a fresh code of the account's own WeChat user is required", async () => {
    const w = await wechatAccount();
    const email = randomEmail();
    const missing = await addEmail(w, { new_email: email, password: "first-secret" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { loc: string[] }) => e.loc)).toEqual([
      ["body", "wechat_code"],
    ]);
    expect(missing.body.detail).toMatch(/WeChat/);

    const foreign = await addEmail(w, {
      new_email: email,
      password: "first-secret",
      wechat_code: wechat.issueCode(newOpenid()),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.detail).toMatch(/another WeChat user/);

    const invalid = await addEmail(w, {
      new_email: email,
      password: "first-secret",
      wechat_code: "never-issued",
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].loc).toEqual(["body", "wechat_code"]);

    const [tokens] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from email_tokens where user_id = ${w.id}`,
    );
    expect(tokens!.n).toBe(0);
  });

  it("the first password follows register's rule, checked before the WeChat code is spent", async () => {
    const w = await wechatAccount();
    const code = wechat.issueCode(w.openid);
    const weak = await addEmail(w, {
      new_email: randomEmail(),
      password: "abc",
      wechat_code: code,
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors[0].loc).toEqual(["body", "password"]);
    // The code was not spent on a refused request.
    const ok = await addEmail(w, {
      new_email: randomEmail(),
      password: "long-enough",
      wechat_code: code,
    });
    expect(ok.status).toBe(202);
  });

  it("a taken address is 409 and nothing is issued", async () => {
    const taken = await registerUser(app);
    const w = await wechatAccount();
    const res = await addEmail(w, {
      new_email: taken.email,
      password: "first-secret",
      wechat_code: wechat.issueCode(w.openid),
    });
    expect(res.status).toBe(409);
    expect((await userRow(w.id)).password_hash).toBeNull();
  });

  it("POST /auth/password without a password points at POST /auth/email", async () => {
    const w = await wechatAccount();
    const res = await call(app, "/api/v1/auth/password", {
      token: w.token,
      csrf: w.csrf,
      json: { new_password: "first-secret" },
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/POST \/api\/v1\/auth\/email/);
    // A guest, who cannot add an address, is told to register instead.
    const g = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
    const asGuest = await call(app, "/api/v1/auth/password", {
      token: g.body.access_token,
      csrf: g.body.csrf_token,
      json: { new_password: "first-secret" },
    });
    expect(asGuest.status).toBe(403);
    expect(asGuest.body.detail).toMatch(/register/);
    // An account with a password still has to give it.
    const s = await registerUser(app);
    const missing = await call(app, "/api/v1/auth/password", {
      token: s.accessToken,
      csrf: s.csrfToken,
      json: { new_password: "another-secret" },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].loc).toEqual(["body", "old_password"]);
  });

  it("PATCH /users/me {email} says where the address changes", async () => {
    const w = await wechatAccount();
    const res = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      token: w.token,
      csrf: w.csrf,
      json: { email: randomEmail(), name: "Wei" },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/POST \/api\/v1\/auth\/email/);
    expect(res.body.errors[0]).toMatchObject({ loc: ["body", "email"] });
    expect((await userRow(w.id)).email).toBeNull();
  });
});
