import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { createLogger, type LogLevel, maskEmails } from "../../src/lib/logger";
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
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

const FRONTEND = "https://app.trade.example";
const FROM = "Trade Assistant <no-reply@trade.example>";
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
    ADMIN_EMAILS: "boss@company.example, Second@Company.Example ",
    WECHAT_APP_ID: wechat.appId,
    WECHAT_APP_SECRET: wechat.appSecret,
    WECHAT_API_BASE: wechat.url,
  },
  // What the Node runtime builds from SMTP_URL: every mail goes through a real SMTP server.
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: FROM }) },
});
const { app, database } = ctx;
const HOUR = 3_600_000;

/** The next mail to `address` whose link goes to `page` (verify-email, reset-password). */
const mailTo = (address: string, page?: string, after = 0) =>
  smtp.waitFor(
    (m) =>
      smtp.messages.indexOf(m) >= after &&
      m.envelopeTo.includes(address.toLowerCase()) &&
      (page === undefined || m.links.some((l) => l.startsWith(`${FRONTEND}/${page}?token=`))),
  );

/** Uses a link as a click does: without a session, or with `as` (the clicker's own, Bearer). */
// Typed by the OpenAPI document (ADR 0095): every use sends a well-formed body; the answers are
// the documented union, narrowed with expectStatus where a body is read.
const verify = (token: string, a = app, as?: { accessToken: string }) =>
  typed(a).post("/api/v1/auth/verify-email", {
    json: { token },
    ip: randomIp(),
    token: as?.accessToken,
  });
const forgot = (email: string, ip = randomIp(), a = app) =>
  typed(a).post("/api/v1/auth/password/forgot", { json: { email }, ip });
const reset = (token: string, new_password: string, a = app) =>
  typed(a).post("/api/v1/auth/password/reset", {
    json: { token, new_password },
    ip: randomIp(),
  });
const login = (email: string, password: string) =>
  typed(app).post("/api/v1/auth/login", { json: { email, password }, ip: randomIp() });
const authed = (s: Session, path: string, json?: unknown) =>
  call(app, path, { token: s.accessToken, csrf: s.csrfToken, json: json ?? {} });

async function userRow(id: string) {
  const [row] = await queryRows<{
    email: string;
    email_verified_at: Date | string | null;
    role: string;
    failed_login_count: number;
  }>(
    database.db,
    sql`select email, email_verified_at, role, failed_login_count from users where id = ${id}`,
  );
  return row!;
}

/** Registers and returns the session with the token of the verification mail it sent. */
async function registered(email = randomEmail()) {
  const session = await registerUser(app, { email });
  const mail = await mailTo(email, "verify-email");
  return { session, mail, token: tokenOf(mail) };
}

describe("verification on registration", () => {
  it("registering mails a link to FRONTEND_URL/verify-email; using it verifies the address once", async () => {
    const { session, mail, token } = await registered();
    expect(mail.envelopeFrom).toBe("no-reply@trade.example");
    expect(mail.subject).toMatch(/confirm/i);
    expect(mail.links[0]).toBe(`${FRONTEND}/verify-email?token=${token}`);
    expect((await userRow(session.userId)).email_verified_at).toBeNull();

    const first = await verify(token);
    expectStatus(first, 200);
    // Clicked without the session: the registration's session ends (ADR 0084).
    expect(first.body).toEqual({
      detail: "Address verified",
      email: session.email,
      email_verified: true,
      sessions_ended: 1,
    });
    expect((await userRow(session.userId)).email_verified_at).not.toBeNull();

    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/already been used/);
  });

  it("the token is stored as a hash only", async () => {
    const { session, token } = await registered();
    const rows = await queryRows<{ token_hash: string }>(
      database.db,
      sql`select token_hash from email_tokens where user_id = ${session.userId}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.token_hash).not.toContain(token);
  });

  it("an unknown or malformed token is refused with a clear detail", async () => {
    const unknown = await verify("A".repeat(43));
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe("This link is invalid");
    expect((await verify("not a token!")).status).toBe(422);
  });

  it("an expired link is refused; the same link inside its lifetime works", async () => {
    const { session, token } = await registered();
    const later = await ctx.makeApp({ clock: { now: () => new Date(Date.now() + 49 * HOUR) } });
    const expired = await verify(token, later);
    expect(expired.status).toBe(400);
    expect(expired.body.detail).toMatch(/expired/);
    expect((await userRow(session.userId)).email_verified_at).toBeNull();
    expect((await verify(token)).status).toBe(200);
  });

  it("two concurrent uses of one link apply once", async () => {
    const { token } = await registered();
    const results = await Promise.all([verify(token), verify(token), verify(token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });
});

describe("POST /auth/verify-email/request", () => {
  const path = "/api/v1/auth/verify-email/request";

  it("needs a token and the CSRF header", async () => {
    const { session } = await registered();
    expect((await call(app, path, { method: "POST" })).status).toBe(401);
    expect((await call(app, path, { method: "POST", token: session.accessToken })).status).toBe(
      403,
    );
  });

  it("mails a new link; the older one stops working; once verified it is a 409", async () => {
    const { session, token: old } = await registered();
    const before = smtp.messages.length;
    const res = await authed(session, path);
    expect(res.status).toBe(202);
    const fresh = tokenOf(await mailTo(session.email, "verify-email", before));
    expect(fresh).not.toBe(old);

    const stale = await verify(old);
    expect(stale.status).toBe(400);
    expect(stale.body.detail).toMatch(/newer one/);
    expect((await verify(fresh, app, session)).status).toBe(200);

    const done = await authed(session, path);
    expect(done.status).toBe(409);
    expect(done.body.detail).toMatch(/already verified/);
  });

  it("guests and WeChat accounts have no address: 403, nothing sent", async () => {
    const guest = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
    expect(guest.status).toBe(201);
    const asGuest = await call(app, path, {
      method: "POST",
      token: guest.body.access_token,
      csrf: guest.body.csrf_token,
    });
    expect(asGuest.status).toBe(403);
    expect(asGuest.body.detail).toMatch(/Guests/);

    const openid = `o${crypto.randomUUID().replaceAll("-", "")}`;
    const before = smtp.messages.length;
    const wx = await call(app, "/api/v1/auth/wechat/login", {
      json: { code: wechat.issueCode(openid) },
      ip: randomIp(),
    });
    expect(wx.status).toBe(200);
    const asWechat = await call(app, path, {
      method: "POST",
      token: wx.body.access_token,
      csrf: wx.body.csrf_token,
    });
    expect(asWechat.status).toBe(403);
    expect(asWechat.body.detail).toMatch(/no e-mail address/);
    await pendingMail();
    expect(smtp.messages.length).toBe(before);
  });

  it("is limited to 5 an hour per user", async () => {
    const { session } = await registered();
    for (let i = 0; i < 5; i++) expect((await authed(session, path)).status).toBe(202);
    const limited = await authed(session, path);
    expect(limited.status).toBe(429);
    expect(limited.res.headers.get("Retry-After")).toBeTruthy();
  });
});

describe("password reset", () => {
  it("forgot -> mailed link -> new password; every old session is refused", async () => {
    const { session } = await registered();
    const other = await login(session.email, session.password);
    expectStatus(other, 200);
    await database.db.execute(
      sql`update users set failed_login_count = 4 where id = ${session.userId}`,
    );

    const before = smtp.messages.length;
    const asked = await forgot(session.email.toUpperCase());
    expect(asked.status).toBe(202);
    const mail = await mailTo(session.email, "reset-password", before);
    expect(mail.subject).toMatch(/reset/i);
    const token = tokenOf(mail);

    const done = await reset(token, "a brand new password");
    expectStatus(done, 200);
    expect((await login(session.email, session.password)).status).toBe(401);
    expect((await login(session.email, "a brand new password")).status).toBe(200);
    expect((await userRow(session.userId)).failed_login_count).toBe(0);

    // Both earlier sessions: the refresh tokens are revoked, the access tokens refused.
    for (const refresh_token of [session.refreshToken, other.body.refresh_token]) {
      const refreshed = await call(app, "/api/v1/auth/refresh", {
        json: { refresh_token },
        ip: randomIp(),
      });
      expect(refreshed.status).toBe(401);
    }
    const revoked = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from session_revocations where user_id = ${session.userId}`,
    );
    expect(revoked[0]!.n).toBe(2);

    const second = await reset(token, "yet another password");
    expect(second.status).toBe(400);
    expect(second.body.detail).toMatch(/already been used/);
  });

  it("an access token issued before the reset is refused (the session guard)", async () => {
    const { session } = await registered();
    expect((await call(app, "/api/v1/auth/me", { token: session.accessToken })).status).toBe(200);
    const before = smtp.messages.length;
    await forgot(session.email);
    const token = tokenOf(await mailTo(session.email, "reset-password", before));
    expect((await reset(token, "a brand new password")).status).toBe(200);
    const me = await call(app, "/api/v1/auth/me", { token: session.accessToken });
    expect(me.status).toBe(401);
  });

  it("an unknown address is the same 202 and sends nothing", async () => {
    const { session } = await registered();
    await pendingMail();
    const before = smtp.messages.length;
    const unknownEmail = randomEmail();
    const unknown = await forgot(unknownEmail);
    const known = await forgot(session.email);
    expectStatus(unknown, 202);
    expect(unknown.body).toEqual(known.body);
    await pendingMail();
    const sent = smtp.messages.slice(before);
    expect(sent.map((m) => m.envelopeTo)).toEqual([[session.email]]);
  });

  it("a reset link expires after an hour; a newer one replaces it", async () => {
    const { session } = await registered();
    let before = smtp.messages.length;
    await forgot(session.email);
    const first = tokenOf(await mailTo(session.email, "reset-password", before));
    const later = await ctx.makeApp({ clock: { now: () => new Date(Date.now() + 61 * 60_000) } });
    const expired = await reset(first, "a brand new password", later);
    expect(expired.status).toBe(400);
    expect(expired.body.detail).toMatch(/expired/);

    before = smtp.messages.length;
    await forgot(session.email);
    const second = tokenOf(await mailTo(session.email, "reset-password", before));
    expect((await reset(first, "a brand new password")).status).toBe(400);
    expect((await reset(second, "a brand new password")).status).toBe(200);
  });

  it("a verification token is no reset token, and the new password is validated", async () => {
    const { token } = await registered();
    const wrongPurpose = await reset(token, "a brand new password");
    expect(wrongPurpose.status).toBe(400);
    expect((await reset(token, "short")).status).toBe(422);
    expect((await verify(token)).status).toBe(200);
  });

  it("two concurrent resets with one link apply once", async () => {
    const { session } = await registered();
    const before = smtp.messages.length;
    await forgot(session.email);
    const token = tokenOf(await mailTo(session.email, "reset-password", before));
    const results = await Promise.all([
      reset(token, "first new password"),
      reset(token, "second new password"),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("forgot is limited per address, whatever the client address", async () => {
    const email = randomEmail();
    for (let i = 0; i < 3; i++) expect((await forgot(email)).status).toBe(202);
    expect((await forgot(email.toUpperCase())).status).toBe(429);
    expect((await forgot(randomEmail())).status).toBe(202);
  });

  it("a failing mail server changes nothing in the answer and logs no link", async () => {
    const lines: string[] = [];
    const logger = createLogger("info", (line: string, _level: LogLevel) => lines.push(line));
    const quiet = await ctx.makeApp({ logger });
    const { session } = await registered();
    smtp.rejectRecipients(550);
    try {
      const res = await forgot(session.email, randomIp(), quiet);
      expect(res.status).toBe(202);
      await pendingMail();
    } finally {
      smtp.rejectRecipients(null);
    }
    const failure = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "mail not sent");
    expect(failure).toMatchObject({
      level: "warn",
      mail: "reset_password",
      reason: "invalid_message",
    });
    expect(lines.join("\n")).not.toMatch(/token=/);
  });
});

describe("without a mail provider (npm start)", () => {
  it("each mail is written to the log with its link, and the link works", async () => {
    const lines: string[] = [];
    const logger = createLogger("info", (line: string) => lines.push(line));
    const logged = await ctx.makeApp({ mailer: undefined, logger });
    const { session } = await registered();
    expect((await forgot(session.email, randomIp(), logged)).status).toBe(202);
    await pendingMail();
    // The address is masked in the log (b***@domain); the link is what a developer copies.
    const entry = lines.map((l) => JSON.parse(l)).find((l) => l.to === maskEmails(session.email));
    expect(entry).toMatchObject({ level: "info" });
    const link = (entry.links as string[]).find((l) => l.startsWith(`${FRONTEND}/reset-password`));
    const token = new URL(link!).searchParams.get("token")!;
    expect((await reset(token, "a brand new password")).status).toBe(200);
  });
});

describe("POST /auth/email (change of address)", () => {
  const path = "/api/v1/auth/email";

  it("needs the password; takes effect only once the new address is verified", async () => {
    const { session } = await registered();
    const newEmail = randomEmail();
    expect(
      (await call(app, path, { token: session.accessToken, json: { new_email: newEmail } })).status,
    ).toBe(403); // no CSRF token

    const before = smtp.messages.length;
    const wrong = await authed(session, path, { new_email: newEmail, password: "not it" });
    expect(wrong.status).toBe(422);
    await pendingMail();
    expect(smtp.messages.length).toBe(before);

    const asked = await authed(session, path, {
      new_email: newEmail.toUpperCase(),
      password: session.password,
    });
    expect(asked.status).toBe(202);
    const confirm = await mailTo(newEmail, "verify-email", before);
    const notice = await mailTo(session.email, undefined, before);
    expect(notice.text).toContain(newEmail);
    expect(notice.links).toEqual([]);

    // Nothing changed yet.
    expect((await userRow(session.userId)).email).toBe(session.email);
    expect((await login(newEmail, session.password)).status).toBe(401);
    expect((await login(session.email, session.password)).status).toBe(200);

    const used = await verify(tokenOf(confirm));
    expectStatus(used, 200);
    // The registration's session and the login's: neither made the click.
    expect(used.body).toEqual({
      detail: "Address changed and verified",
      email: newEmail,
      email_verified: true,
      sessions_ended: 2,
    });
    const row = await userRow(session.userId);
    expect(row.email).toBe(newEmail);
    expect(row.email_verified_at).not.toBeNull();
    expect((await login(newEmail, session.password)).status).toBe(200);
    expect((await login(session.email, session.password)).status).toBe(401);
    expect((await verify(tokenOf(confirm))).status).toBe(400);
  });

  it("a pending change dies when the owner changes or resets the password", async () => {
    // Someone who learnt the password starts a change to their own address; the owner, warned
    // by the notice, changes the password (or resets it): the link must stop working.
    for (const takeBack of ["change", "reset"] as const) {
      const { session } = await registered();
      const attacker = randomEmail();
      const before = smtp.messages.length;
      expect(
        (await authed(session, path, { new_email: attacker, password: session.password })).status,
      ).toBe(202);
      const link = tokenOf(await mailTo(attacker, "verify-email", before));
      if (takeBack === "change") {
        const changed = await authed(session, "/api/v1/auth/password", {
          old_password: session.password,
          new_password: "the owner's new password",
        });
        expect(changed.status).toBe(200);
      } else {
        const mark = smtp.messages.length;
        expect((await forgot(session.email)).status).toBe(202);
        const resetLink = tokenOf(await mailTo(session.email, "reset-password", mark));
        expect((await reset(resetLink, "the owner's new password")).status).toBe(200);
      }
      expect((await verify(link)).status, takeBack).toBe(400);
      expect((await userRow(session.userId)).email).toBe(session.email);
    }
  });

  it("links sent to the old address stop working once the change takes effect", async () => {
    const { session, token: oldVerify } = await registered();
    const newEmail = randomEmail();
    const before = smtp.messages.length;
    await authed(session, path, { new_email: newEmail, password: session.password });
    const confirm = tokenOf(await mailTo(newEmail, "verify-email", before));
    expect((await verify(confirm)).status).toBe(200);
    expect((await verify(oldVerify)).status).toBe(400);
  });

  it("an address another account has is a 409, asked or when the link is used", async () => {
    const { session } = await registered();
    const taken = await registerUser(app);
    const now = await authed(session, path, { new_email: taken.email, password: session.password });
    expect(now.status).toBe(409);

    const wanted = randomEmail();
    const before = smtp.messages.length;
    await authed(session, path, { new_email: wanted, password: session.password });
    const confirm = tokenOf(await mailTo(wanted, "verify-email", before));
    await registerUser(app, { email: wanted });
    const late = await verify(confirm);
    expect(late.status).toBe(409);
    expect((await userRow(session.userId)).email).toBe(session.email);
  });
});
