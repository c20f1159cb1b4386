import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { demoteUnverifiedListedAdmins, pendingMail } from "../../src/modules/account/service";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { type ReceivedMail, startFakeSmtp, tokenOf } from "../fakes/smtp";
import { startFakeWechat } from "../fakes/wechat";
import { call, randomEmail, randomIp, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * ADR 0084: admin only for whoever holds the mailbox, and a verification link that ends the
 * sessions of whoever registered the address (the pre-hijack case). Each attack below is the
 * reproduction of issue 20 or a sibling path that sets an address.
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
    // Listed differently from how people register: the check normalises both sides.
    ADMIN_EMAILS:
      " Boss@Corp.Example,second@corp.example , third@corp.example,fourth@corp.example,fifth@corp.example,sixth@corp.example",
    WECHAT_APP_ID: wechat.appId,
    WECHAT_APP_SECRET: wechat.appSecret,
    WECHAT_API_BASE: wechat.url,
  },
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: "no-reply@trade.example" }) },
});
const { app, database } = ctx;

/** The next mail to `address` carrying a link, sent after message number `after`. */
const linkMailTo = (address: string, after = 0) =>
  smtp.waitFor(
    (m) =>
      smtp.messages.indexOf(m) >= after &&
      m.envelopeTo.includes(address.toLowerCase()) &&
      m.links.some((l) => l.includes("token=")),
  );

const pageOf = (mail: ReceivedMail) =>
  new URL(mail.links.find((l) => l.includes("token="))!).pathname;

const verify = (token: string, as?: { accessToken: string }) =>
  call(app, "/api/v1/auth/verify-email", {
    json: { token },
    ip: randomIp(),
    token: as?.accessToken,
  });
const reset = (token: string, new_password: string) =>
  call(app, "/api/v1/auth/password/reset", { json: { token, new_password }, ip: randomIp() });
const forgot = (email: string) =>
  call(app, "/api/v1/auth/password/forgot", { json: { email }, ip: randomIp() });
const login = (email: string, password: string) =>
  call(app, "/api/v1/auth/login", { json: { email, password }, ip: randomIp() });
const refresh = (refresh_token: string) =>
  call(app, "/api/v1/auth/refresh", { json: { refresh_token }, ip: randomIp() });
const adminList = (s: { accessToken: string }) =>
  call(app, "/api/v1/admin/users", { token: s.accessToken });
const me = (s: { accessToken: string }) => call(app, "/api/v1/auth/me", { token: s.accessToken });
const authed = (s: Session, path: string, json?: unknown) =>
  call(app, path, { token: s.accessToken, csrf: s.csrfToken, json: json ?? {} });

/**
 * What the owner does with the mail: opens its link, and on the page it leads to does what the
 * page asks (the verify page posts the token; the reset page posts it with a new password).
 */
async function ownerClicks(mail: ReceivedMail, password = "the owner's own password") {
  const token = tokenOf(mail);
  return pageOf(mail) === "/reset-password" ? reset(token, password) : verify(token);
}

async function userRow(id: string) {
  const [row] = await queryRows<{ role: string; email: string; email_verified_at: unknown }>(
    database.db,
    sql`select role, email, email_verified_at from users where id = ${id}`,
  );
  return row!;
}

async function auditOf(id: string) {
  return queryRows<{ action: string; request_id: string | null; actor_id: string | null }>(
    database.db,
    sql`select action, request_id, actor_id from admin_audit_log where target_id = ${id}
        order by created_at, id`,
  );
}

/** The attacker's whole footing: the access token, the refresh token and the password. */
async function expectLockedOut(attacker: Session) {
  expect((await adminList(attacker)).status).toBe(401);
  expect((await me(attacker)).status).toBe(401);
  expect((await refresh(attacker.refreshToken)).status).toBe(401);
  expect((await login(attacker.email, attacker.password)).status).toBe(401);
}

describe("a listed address registered by someone else (issue 20's reproduction)", () => {
  it("the owner's click never gives the attacker's session admin; the owner's password does", async () => {
    const attacker = await registerUser(app, {
      email: "Boss@corp.example",
      password: "attacker's choice",
    });
    expect(attacker.body.user.role).toBe("user");
    const mail = await linkMailTo("boss@corp.example");
    // The link leads where the mailbox holder chooses the password, never to a bare verify.
    expect(pageOf(mail)).toBe("/reset-password");
    expect(mail.subject).toMatch(/choose your .* password/i);
    expect(mail.text).not.toMatch(/admin/i);
    // Used as a verification link, it is refused and changes nothing.
    expect((await verify(tokenOf(mail), attacker)).status).toBe(400);
    expect((await userRow(attacker.userId)).role).toBe("user");

    const clicked = await ownerClicks(mail);
    expect(clicked.status).toBe(200);
    expect(clicked.body.detail).toMatch(/now an administrator/);
    const row = await userRow(attacker.userId);
    expect(row.role).toBe("admin");
    expect(row.email_verified_at).not.toBeNull();

    // The attacker's open session, refresh token and password: all gone.
    await expectLockedOut(attacker);
    // The owner's password is the one that works, and it is the admin.
    const owner = await login("boss@corp.example", "the owner's own password");
    expect(owner.status).toBe(200);
    expect((await adminList({ accessToken: owner.body.access_token })).status).toBe(200);

    const audit = await auditOf(attacker.userId);
    expect(audit).toEqual([
      {
        action: "user.role_claim",
        request_id: clicked.res.headers.get("X-Request-Id"),
        actor_id: null,
      },
    ]);
  });

  it("asking the link again sends the claim again; the older one stops working", async () => {
    const attacker = await registerUser(app, { email: "third@corp.example" });
    const first = await linkMailTo("third@corp.example");
    const before = smtp.messages.length;
    expect((await authed(attacker, "/api/v1/auth/verify-email/request")).status).toBe(202);
    const second = await linkMailTo("third@corp.example", before);
    expect(pageOf(second)).toBe("/reset-password");
    expect((await reset(tokenOf(first), "the owner's own password")).status).toBe(400);
    expect((await ownerClicks(second)).status).toBe(200);
    expect((await userRow(attacker.userId)).role).toBe("admin");
    await expectLockedOut(attacker);
  });

  it("a verify link issued for a listed address before this rule verifies but never promotes", async () => {
    // Registered while the address was not listed (a verify_email link went out), listed since.
    const unlisted = await ctx.makeApp({}, { ADMIN_EMAILS: "" });
    const attacker = await registerUser(unlisted, {
      email: "fourth@corp.example",
      password: "attacker's choice",
    });
    const mail = await linkMailTo("fourth@corp.example");
    expect(pageOf(mail)).toBe("/verify-email");
    const clicked = await verify(tokenOf(mail));
    expect(clicked.status).toBe(200);
    expect(clicked.body.sessions_ended).toBe(1);
    expect((await userRow(attacker.userId)).role).toBe("user");
    expect((await adminList(attacker)).status).toBe(401);
    // The attacker still knows the password they chose, and still gets nothing from it.
    const again = await login(attacker.email, attacker.password);
    expect(again.status).toBe(200);
    expect((await adminList({ accessToken: again.body.access_token })).status).toBe(403);
  });
});

describe("an e-mail change to a listed address", () => {
  it("never grants admin; the owner's click ends the requester's sessions", async () => {
    const attacker = await registerUser(app);
    const before = smtp.messages.length;
    const asked = await authed(attacker, "/api/v1/auth/email", {
      new_email: "second@corp.example",
      password: attacker.password,
    });
    expect(asked.status).toBe(202);
    const mail = await linkMailTo("second@corp.example", before);
    expect(pageOf(mail)).toBe("/verify-email");
    const clicked = await ownerClicks(mail);
    expect(clicked.status).toBe(200);
    expect(clicked.body).toMatchObject({ email: "second@corp.example", sessions_ended: 1 });
    expect((await userRow(attacker.userId)).role).toBe("user");
    expect((await adminList(attacker)).status).toBe(401);
    expect((await refresh(attacker.refreshToken)).status).toBe(401);

    // Signing in again with the password the attacker knows: a plain user still.
    const back = await login("second@corp.example", attacker.password);
    expect(back.status).toBe(200);
    const backSession = {
      ...attacker,
      email: "second@corp.example",
      accessToken: back.body.access_token,
      refreshToken: back.body.refresh_token,
    };
    expect((await adminList(backSession)).status).toBe(403);

    // The mailbox holder takes the account back with a reset: admin, and the attacker is out.
    const mark = smtp.messages.length;
    expect((await forgot("second@corp.example")).status).toBe(202);
    const resetMail = await linkMailTo("second@corp.example", mark);
    expect((await ownerClicks(resetMail)).status).toBe(200);
    expect((await userRow(attacker.userId)).role).toBe("admin");
    await expectLockedOut(backSession);
    expect((await auditOf(attacker.userId)).map((a) => a.action)).toEqual(["user.role_claim"]);
  });
});

describe("a guest upgraded to a listed address (ADR 0062)", () => {
  it("gets the claim link, not the role; the owner's password ends the guest's session", async () => {
    const guest = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
    expect(guest.status).toBe(201);
    const email = "fifth@corp.example";
    const upgraded = await call(app, "/api/v1/auth/register", {
      json: { email, password: "attacker's choice" },
      token: guest.body.access_token,
      ip: randomIp(),
    });
    expect(upgraded.status).toBe(201);
    expect(upgraded.body.user).toMatchObject({ id: guest.body.user.id, role: "user" });
    const mail = await linkMailTo(email);
    expect(pageOf(mail)).toBe("/reset-password");
    const session = { accessToken: upgraded.body.access_token };
    expect((await adminList(session)).status).toBe(403);

    expect((await ownerClicks(mail)).status).toBe(200);
    expect((await userRow(guest.body.user.id)).role).toBe("admin");
    expect((await adminList(session)).status).toBe(401);
    expect((await refresh(upgraded.body.refresh_token)).status).toBe(401);
    expect((await login(email, "attacker's choice")).status).toBe(401);
  });
});

describe("the pre-hijack case: verification ends the registrant's sessions (every account)", () => {
  it("an unlisted address registered by someone else: the owner's click signs them out", async () => {
    const victim = randomEmail();
    const attacker = await registerUser(app, { email: victim, password: "attacker's choice" });
    const second = await login(victim, "attacker's choice");
    const mail = await linkMailTo(victim);
    expect(pageOf(mail)).toBe("/verify-email");
    const clicked = await ownerClicks(mail);
    expect(clicked.status).toBe(200);
    expect(clicked.body.sessions_ended).toBe(2);
    expect((await me(attacker)).status).toBe(401);
    expect((await me({ accessToken: second.body.access_token })).status).toBe(401);
    expect((await refresh(attacker.refreshToken)).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).status).toBe(401);
    expect((await userRow(attacker.userId)).role).toBe("user");
  });

  it("the registrant who clicks in their own session keeps it (Bearer, or cookie + CSRF)", async () => {
    for (const via of ["bearer", "cookie"] as const) {
      const email = randomEmail();
      const user = await registerUser(app, { email });
      const phone = await login(email, user.password);
      const token = tokenOf(await linkMailTo(email));
      const clicked =
        via === "bearer"
          ? await verify(token, user)
          : await call(app, "/api/v1/auth/verify-email", {
              json: { token },
              ip: randomIp(),
              cookies: { access_token: user.accessToken, csrf_token: user.csrfToken },
              csrf: user.csrfToken,
            });
      expect(clicked.status, via).toBe(200);
      expect(clicked.body.sessions_ended, via).toBe(1);
      const mine = await me(user);
      expect(mine.status, via).toBe(200);
      expect(mine.body.email_verified, via).toBe(true);
      // The other device's session was not the clicker's: it ended.
      expect((await me({ accessToken: phone.body.access_token })).status, via).toBe(401);
    }
  });

  it("a cookie without the CSRF proof, or another account's session, keeps nothing", async () => {
    const email = randomEmail();
    const user = await registerUser(app, { email });
    const stranger = await registerUser(app);
    const token = tokenOf(await linkMailTo(email));
    const cookieOnly = await call(app, "/api/v1/auth/verify-email", {
      json: { token },
      ip: randomIp(),
      cookies: { access_token: user.accessToken },
    });
    expect(cookieOnly.status).toBe(200);
    expect(cookieOnly.body.sessions_ended).toBe(1);
    expect((await me(user)).status).toBe(401);

    const email2 = randomEmail();
    const user2 = await registerUser(app, { email: email2 });
    const clicked = await verify(tokenOf(await linkMailTo(email2)), stranger);
    expect(clicked.body.sessions_ended).toBe(1);
    expect((await me(user2)).status).toBe(401);
    expect((await me(stranger)).status).toBe(200);
  });

  it("a second use of a used link, or a link after the address was verified, ends nothing", async () => {
    const email = randomEmail();
    const user = await registerUser(app, { email });
    const token = tokenOf(await linkMailTo(email));
    expect((await verify(token, user)).status).toBe(200);
    expect((await verify(token)).status).toBe(400);
    expect((await me(user)).status).toBe(200);
  });
});

describe("no other path sets an address", () => {
  it("a WeChat account asks only with a fresh code and stays a user; admins and profiles cannot write one", async () => {
    const openid = `o${crypto.randomUUID().replaceAll("-", "")}`;
    const wx = await call(app, "/api/v1/auth/wechat/login", {
      json: { code: wechat.issueCode(openid) },
      ip: randomIp(),
    });
    expect(wx.status).toBe(200);
    const ask = (json: Record<string, string>) =>
      call(app, "/api/v1/auth/email", {
        token: wx.body.access_token,
        csrf: wx.body.csrf_token,
        json: { new_email: "sixth@corp.example", password: "a long first password", ...json },
      });
    // A stolen session alone cannot point the account at a listed address (ADR 0089).
    expect((await ask({})).status).toBe(422);
    // With the owner's fresh code the link goes to the listed mailbox; the account itself
    // gains nothing until that mailbox's holder claims it (ADR 0084).
    expect((await ask({ wechat_code: wechat.issueCode(openid) })).status).toBe(202);
    const wxRow = await userRow(wx.body.user.id);
    expect(wxRow.role).toBe("user");
    expect(wxRow.email).not.toBe("sixth@corp.example");

    const user = await registerUser(app);
    const profile = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      token: user.accessToken,
      csrf: user.csrfToken,
      json: { email: "boss@corp.example" },
    });
    expect(profile.status).toBe(422);

    const admin = await registerUser(app);
    await database.db.execute(sql`update users set role = 'admin' where id = ${admin.userId}`);
    const patched = await call(app, `/api/v1/admin/users/${user.userId}`, {
      method: "PATCH",
      token: admin.accessToken,
      csrf: admin.csrfToken,
      json: { email: "boss@corp.example" },
    });
    expect(patched.status).toBe(422);
    expect((await userRow(user.userId)).email).toBe(user.email);
  });
});

describe("start-up: listed admins no mailbox holder confirmed go back to user", () => {
  it("demotes the unverified and the click-bootstrapped; keeps claimed and granted admins", async () => {
    const insert = (id: string, action: string, minutes: number) =>
      database.db.execute(
        sql`insert into admin_audit_log (action, target_type, target_id, changes, request_id, created_at)
            values (${action}, 'user', ${id}, '{"role":{"before":"user","after":"admin"}}'::jsonb,
                    'test', now() - make_interval(mins => ${minutes}))`,
      );
    const listed = ["a@corp.example", "b@corp.example", "c@corp.example", "d@corp.example"];
    const [unverified, clicked, claimed, granted] = await Promise.all(
      listed.map((email) => registerUser(app, { email })),
    );
    await database.db.execute(
      sql`update users set role = 'admin', email_verified_at = now()
          where id in (${clicked!.userId}, ${claimed!.userId}, ${granted!.userId})`,
    );
    await database.db.execute(
      sql`update users set role = 'admin' where id = ${unverified!.userId}`,
    );
    await insert(clicked!.userId, "user.role_bootstrap", 10);
    await insert(claimed!.userId, "user.role_bootstrap", 10);
    await insert(claimed!.userId, "user.role_claim", 5);
    await insert(granted!.userId, "user.role_bootstrap", 10);
    await insert(granted!.userId, "user.role_grant", 5);

    expect(await demoteUnverifiedListedAdmins(database.db, listed)).toBe(2);
    expect(await demoteUnverifiedListedAdmins(database.db, listed)).toBe(0);
    expect((await userRow(unverified!.userId)).role).toBe("user");
    expect((await userRow(clicked!.userId)).role).toBe("user");
    expect((await userRow(claimed!.userId)).role).toBe("admin");
    expect((await userRow(granted!.userId)).role).toBe("admin");
    const demotions = await queryRows<{ target_id: string; action: string; request_id: string }>(
      database.db,
      sql`select target_id, action, request_id from admin_audit_log
          where action like 'user.role_%_demote' order by action`,
    );
    expect(demotions).toEqual([
      { target_id: clicked!.userId, action: "user.role_unclaimed_demote", request_id: "startup" },
      {
        target_id: unverified!.userId,
        action: "user.role_unverified_demote",
        request_id: "startup",
      },
    ]);
    // A listed address is not touched for lack of listing: an empty list demotes nobody.
    expect(await demoteUnverifiedListedAdmins(database.db, [])).toBe(0);
  });
});
