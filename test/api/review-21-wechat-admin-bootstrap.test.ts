import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingMail } from "../../src/modules/account/service";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { startFakeSmtp, tokenOf } from "../fakes/smtp";
import { startFakeWechat } from "../fakes/wechat";
import { call, randomIp } from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * The ADMIN_EMAILS bootstrap (ADR 0084) promotes the account whose password the listed
 * mailbox's holder sets by a reset. Since ADR 0089 a WeChat account can take an address; a
 * reset ends sessions and replaces the password but leaves the WeChat sign-in, a credential the
 * mailbox holder can neither see nor remove. So a WeChat-linked account is never promoted by the
 * bootstrap: otherwise the WeChat user who pointed the account at the listed address (and got
 * the holder to click the link) signs in as an admin after the holder's reset.
 */
const LISTED = "root@corp.example";
const smtp = await startFakeSmtp();
const wechat = await startFakeWechat();
afterAll(async () => {
  await pendingMail();
  await Promise.all([smtp.close(), wechat.close()]);
});
const ctx = await createTestContext({
  env: {
    FRONTEND_URL: "https://app.trade.example",
    ADMIN_EMAILS: LISTED,
    WECHAT_APP_ID: wechat.appId,
    WECHAT_APP_SECRET: wechat.appSecret,
    WECHAT_API_BASE: wechat.url,
  },
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: "no-reply@trade.example" }) },
});
const { app, database } = ctx;

const mailTo = (address: string, page: string, after: number) =>
  smtp.waitFor(
    (m) =>
      smtp.messages.indexOf(m) >= after &&
      m.envelopeTo.includes(address) &&
      m.links.some((l) => l.includes(page) && l.includes("token=")),
  );

describe("ADMIN_EMAILS bootstrap and WeChat accounts", () => {
  it("a reset by the listed mailbox's holder does not make a WeChat account an admin", async () => {
    const openid = `o${crypto.randomUUID().replaceAll("-", "")}`;
    const wx = await call(app, "/api/v1/auth/wechat/login", {
      json: { code: wechat.issueCode(openid) },
      ip: randomIp(),
    });
    expect(wx.status).toBe(200);
    // The WeChat user points the account at the listed address (with a fresh code of its own).
    let after = smtp.messages.length;
    const asked = await call(app, "/api/v1/auth/email", {
      token: wx.body.access_token,
      csrf: wx.body.csrf_token,
      json: {
        new_email: LISTED,
        password: "the wechat user's password",
        wechat_code: wechat.issueCode(openid),
      },
    });
    expect(asked.status).toBe(202);
    // The holder opens the link, then (the address "has an account") resets its password.
    const link = await mailTo(LISTED, "/verify-email", after);
    const verified = await call(app, "/api/v1/auth/verify-email", {
      json: { token: tokenOf(link) },
      ip: randomIp(),
    });
    expect(verified.status).toBe(200);
    after = smtp.messages.length;
    const forgot = await call(app, "/api/v1/auth/password/forgot", {
      json: { email: LISTED },
      ip: randomIp(),
    });
    expect(forgot.status).toBe(202);
    const resetMail = await mailTo(LISTED, "/reset-password", after);
    const reset = await call(app, "/api/v1/auth/password/reset", {
      json: { token: tokenOf(resetMail), new_password: "the holder's own password" },
      ip: randomIp(),
    });
    expect(reset.status).toBe(200);

    // The WeChat user signs in again: the account must not be an admin.
    const again = await call(app, "/api/v1/auth/wechat/login", {
      json: { code: wechat.issueCode(openid) },
      ip: randomIp(),
    });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(wx.body.user.id);
    const [row] = await queryRows<{ role: string }>(
      database.db,
      sql`select role from users where id = ${wx.body.user.id}`,
    );
    expect(row!.role).toBe("user");
    expect(
      (await call(app, "/api/v1/admin/users", { token: again.body.access_token })).status,
    ).toBe(403);
  });
});
