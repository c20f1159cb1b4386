import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { buildDeps } from "../../src/deps";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { createLogger } from "../../src/lib/logger";
import { signAccessToken } from "../../src/modules/auth/tokens";
import {
  PUSH_LEASE_MS,
  PUSH_MAX_ATTEMPTS,
  pushPendingNotifications,
} from "../../src/modules/notifications/push";
import type { Deps } from "../../src/ports";
import { wechatTime } from "../../src/providers/messaging/wechat";
import { createMemoryRateLimiter } from "../../src/providers/ratelimit/memory";
import { nodeResolver } from "../../src/runtime/node/dns";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { startFakeWechat } from "../fakes/wechat";
import { expectStatus, randomIp, registerUser, api as typed } from "../support/client";
import { createTestContext, TEST_SECRETS, testConfig } from "../support/harness";

const wechat = await startFakeWechat();
afterAll(() => wechat.close());

/** The whole file runs on a clock it controls; it only ever moves forward. */
let now = new Date("2026-06-01T12:00:00.000Z");
const clock = { now: () => now };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ENV = {
  WECHAT_APP_ID: wechat.appId,
  WECHAT_APP_SECRET: wechat.appSecret,
  WECHAT_API_BASE: wechat.url,
  WECHAT_TEMPLATE_ID: wechat.push.templateId,
};
const ctx = await createTestContext({ env: ENV, runtime: { clock } });
const { app, deps } = ctx;

afterEach(() => {
  wechat.push.reset();
});

/** Deps of another instance on the same database (its own token cache), with `env` on top. */
function otherInstance(env: Record<string, string> = {}): Promise<Deps> {
  return buildDeps(testConfig({ ...ENV, ...env }), {
    database: ctx.database,
    limiter: createMemoryRateLimiter(),
    passwords: createNodePasswordHasher(),
    resolveHost: nodeResolver,
    secrets: TEST_SECRETS,
    clock,
    logger: createLogger("silent"),
  });
}

interface Seller {
  userId: string;
  openid: string | null;
}

/** A seller who logged in through WeChat (so users.wechat_openid is set by the real route). */
async function wechatSeller(): Promise<Seller> {
  const openid = `o${crypto.randomUUID().replaceAll("-", "")}`;
  const res = await typed(app).post("/api/v1/auth/wechat/login", {
    json: { code: wechat.issueCode(openid) },
    ip: randomIp(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectStatus(res, 200);
  return { userId: res.body.user.id, openid };
}

async function emailSeller(): Promise<Seller> {
  return { userId: (await registerUser(app)).userId, openid: null };
}

/** A customer of `seller` created through the API, then made silent for 60 days. */
async function silentCustomer(seller: Seller, company: string): Promise<string> {
  const token = await signAccessToken(deps, {
    userId: seller.userId,
    sessionId: crypto.randomUUID(),
    role: "user",
    isGuest: false,
  });
  const res = await typed(app).post("/api/v1/customers", { token, json: { company } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expectStatus(res, 201);
  await deps.db.execute(
    sql`update customers set created_at = ${new Date(now.getTime() - 60 * DAY).toISOString()}::timestamptz,
          last_contact_at = null
        where id = ${res.body.id}`,
  );
  return res.body.id;
}

/** The reminders task through the entry the Node scheduler and the Workers cron use. */
async function remind(d: Deps = deps) {
  const [outcome] = await runScheduledTasks(d, ["customerReminders"]);
  expect(outcome).toMatchObject({ task: "customerReminders", ok: true });
  return outcome!.result as {
    silent: number;
    followups_due: number;
    digests: number;
    pushed?: { sent: number; failed: number; skipped: number; retry: number };
  };
}

interface PushRow {
  id: string;
  title: string;
  push_state: string;
  push_attempts: number;
  push_error: string | null;
  pushed_at: Date | string | null;
}

async function pushRows(seller: Seller): Promise<PushRow[]> {
  return queryRows<PushRow>(
    deps.db,
    sql`select id, title, push_state, push_attempts, push_error, pushed_at from notifications
        where user_id = ${seller.userId} order by created_at, id`,
  );
}

const messagesTo = (seller: Seller) =>
  wechat.push.messages.filter((m) => m.touser === seller.openid);
const sendsTo = (seller: Seller) => wechat.push.sends.filter((s) => s.touser === seller.openid);
const tick = (ms = 60_000) => {
  now = new Date(now.getTime() + ms);
};

describe("notification pushes through WeChat", () => {
  it("pushes a silent customer's digest exactly once across two runs", async () => {
    const seller = await wechatSeller();
    await silentCustomer(seller, "Acme Trading");

    const first = await remind();
    expect(first).toMatchObject({
      silent: 1,
      digests: 1,
      pushed: { sent: 1, failed: 0, retry: 0 },
    });
    // The same day: the digest is not written again, so nothing is pushed (ADR 0091).
    const second = await remind();
    expect(second).toEqual({
      silent: 1,
      followups_due: 0,
      digests: 0,
      pushed: { sent: 0, failed: 0, skipped: 0, retry: 0 },
    });

    const messages = messagesTo(seller);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      template_id: wechat.push.templateId,
      data: {
        thing1: { value: "1 customer gone qui…" },
        thing2: { value: "Acme Trading" },
        time3: { value: wechatTime(now) },
      },
    });
    expect(messages[0]!.data.time3!.value).toBe("2026-06-01 20:00");
    const [row] = await pushRows(seller);
    expect(row).toMatchObject({ push_state: "sent", push_attempts: 1, push_error: null });
    expect(new Date(row!.pushed_at!).toISOString()).toBe(now.toISOString());

    // The in-app notification is the digest, naming the customer.
    const token = await signAccessToken(deps, {
      userId: seller.userId,
      sessionId: crypto.randomUUID(),
      role: "user",
      isGuest: false,
    });
    const list = await typed(app).get("/api/v1/notifications", { token });
    expectStatus(list, 200);
    expect(list.body.items.map((n) => n.kind)).toEqual(["reminder_digest"]);
    expect(list.body.items[0]!.data).toMatchObject({
      silent: 1,
      most_urgent: [{ customer_name: "Acme Trading", reason: "silent" }],
    });
  });

  it("stores the notification of a user without WeChat and skips its push", async () => {
    const seller = await emailSeller();
    await silentCustomer(seller, "No Channel Ltd");
    const before = wechat.push.sends.length;
    const result = await remind();
    expect(result).toMatchObject({ digests: 1, pushed: { sent: 0, skipped: 1 } });
    expect(wechat.push.sends.length).toBe(before);
    expect(await pushRows(seller)).toMatchObject([
      { push_state: "skipped", push_attempts: 0, push_error: "no_channel", pushed_at: null },
    ]);
  });

  it("refreshes an expired token once and delivers", async () => {
    tick();
    const seller = await wechatSeller();
    await silentCustomer(seller, "Token Co");
    wechat.push.expireTokens();
    const tokensBefore = wechat.push.tokenRequests.length;
    const result = await remind();
    expect(result.pushed).toMatchObject({ sent: 1, failed: 0, retry: 0 });
    expect(wechat.push.tokenRequests.slice(tokensBefore)).toEqual([true]);
    expect(sendsTo(seller).map((s) => s.errcode)).toEqual([42001, 0]);
    expect(await pushRows(seller)).toMatchObject([{ push_state: "sent", push_attempts: 1 }]);
  });

  it("fails an unsubscribed user's push (43004) without retrying it", async () => {
    tick();
    const seller = await wechatSeller();
    await silentCustomer(seller, "Gone Ltd");
    wechat.push.unsubscribe(seller.openid!);
    const result = await remind();
    expect(result.pushed).toMatchObject({ sent: 0, failed: 1, retry: 0 });
    tick(2 * HOUR);
    await remind();
    await remind();
    expect(sendsTo(seller).map((s) => s.errcode)).toEqual([43004]);
    const [row] = await pushRows(seller);
    expect(row).toMatchObject({ push_state: "failed", push_attempts: 1, pushed_at: null });
    expect(row!.push_error).toMatch(/43004/);
  });

  it("retries a transient error on the next run", async () => {
    tick();
    const seller = await wechatSeller();
    await silentCustomer(seller, "Flaky Inc");
    wechat.push.failSends("http-500", 1, seller.openid!);
    expect((await remind()).pushed).toMatchObject({ sent: 0, retry: 1 });
    const [pending] = await pushRows(seller);
    expect(pending).toMatchObject({ push_state: "pending", push_attempts: 1 });
    expect(pending!.push_error).toMatch(/HTTP 500/);
    tick(HOUR);
    expect((await remind()).pushed).toMatchObject({ sent: 1, retry: 0 });
    expect(messagesTo(seller)).toHaveLength(1);
    expect(await pushRows(seller)).toMatchObject([
      { push_state: "sent", push_attempts: 2, push_error: null },
    ]);
  });

  it("fails after the last attempt when WeChat stays busy", async () => {
    tick();
    const seller = await wechatSeller();
    await silentCustomer(seller, "Busy Corp");
    wechat.push.failSends("busy", 100, seller.openid!);
    for (let run = 1; run <= PUSH_MAX_ATTEMPTS; run++) {
      const { pushed } = await remind();
      expect(pushed).toMatchObject(
        run < PUSH_MAX_ATTEMPTS ? { retry: 1, failed: 0 } : { retry: 0, failed: 1 },
      );
      expect(await pushRows(seller)).toMatchObject([
        { push_state: run < PUSH_MAX_ATTEMPTS ? "pending" : "failed", push_attempts: run },
      ]);
      tick(HOUR);
    }
    await remind();
    expect(sendsTo(seller).map((s) => s.errcode)).toEqual(Array(PUSH_MAX_ATTEMPTS).fill(-1));
    expect((await pushRows(seller))[0]!.push_error).toMatch(/errcode -1/);
  });

  it("keeps the attempt when no access token can be had, and sends later", async () => {
    tick();
    const seller = await wechatSeller();
    await silentCustomer(seller, "Quota Ltd");
    wechat.push.expireTokens();
    wechat.push.failToken(45009);
    expect((await remind()).pushed).toMatchObject({ sent: 0, failed: 0, retry: 1 });
    // The cached token was refused, and no fresh one could be had.
    expect(sendsTo(seller).map((s) => s.errcode)).toEqual([42001]);
    const [row] = await pushRows(seller);
    expect(row).toMatchObject({ push_state: "pending", push_attempts: 0 });
    expect(row!.push_error).toMatch(/access token failed: rejected \(errcode 45009\)/);
    wechat.push.failToken(null);
    tick(HOUR);
    expect((await remind()).pushed).toMatchObject({ sent: 1 });
    expect(await pushRows(seller)).toMatchObject([{ push_state: "sent", push_attempts: 1 }]);
    expect(sendsTo(seller).map((s) => s.errcode)).toEqual([42001, 0]);
  });

  it("sends each notification once when two instances run at the same time", async () => {
    tick();
    const a = await wechatSeller();
    const b = await wechatSeller();
    const c = await wechatSeller();
    // Three sellers, so three digests (two of A's customers make one digest).
    await silentCustomer(a, "Twin A1");
    await silentCustomer(a, "Twin A2");
    await silentCustomer(b, "Twin B1");
    await silentCustomer(c, "Twin C1");
    // Write without pushing, then let two instances race over the same pending rows.
    await remind({ ...deps, wechatPush: null });
    // Batches of 2, so both instances find work among the 3.
    const one = await otherInstance({ WECHAT_PUSH_BATCH: "2" });
    const two = await otherInstance({ WECHAT_PUSH_BATCH: "2" });
    wechat.push.delaySends(150);
    const [first, second] = await Promise.all([
      pushPendingNotifications(one),
      pushPendingNotifications(two),
    ]);
    expect(first!.sent + second!.sent).toBe(3);
    expect(Math.min(first!.sent, second!.sent)).toBeGreaterThan(0);
    expect(messagesTo(a)).toHaveLength(1);
    expect(messagesTo(b)).toHaveLength(1);
    expect(messagesTo(c)).toHaveLength(1);
    expect(sendsTo(a)).toHaveLength(1);
    const states = [...(await pushRows(a)), ...(await pushRows(b)), ...(await pushRows(c))];
    expect(states.map((r) => [r.push_state, r.push_attempts])).toEqual([
      ["sent", 1],
      ["sent", 1],
      ["sent", 1],
    ]);
  });

  it("takes over a claim whose lease ran out, not one still held", async () => {
    tick();
    const seller = await wechatSeller();
    await silentCustomer(seller, "Lease Co");
    await remind({ ...deps, wechatPush: null });
    // As if another run claimed it and is still sending.
    await deps.db.execute(
      sql`update notifications set push_state = 'sending', push_attempts = 1,
            push_claimed_until = ${new Date(now.getTime() + PUSH_LEASE_MS).toISOString()}::timestamptz
          where user_id = ${seller.userId}`,
    );
    expect((await pushPendingNotifications(deps))!.sent).toBe(0);
    expect(messagesTo(seller)).toHaveLength(0);
    tick(PUSH_LEASE_MS + 1000); // that run died
    expect((await pushPendingNotifications(deps))!.sent).toBe(1);
    expect(messagesTo(seller)).toHaveLength(1);
    expect(await pushRows(seller)).toMatchObject([{ push_state: "sent", push_attempts: 2 }]);
  });

  it("sends nothing while pushing is off, and never floods stale ones when it is turned on", async () => {
    tick();
    const off = await otherInstance({ WECHAT_TEMPLATE_ID: "" });
    expect(off.wechatPush).toBeNull();
    expect((await otherInstance({ WECHAT_APP_SECRET: "" })).wechatPush).toBeNull();
    const seller = await wechatSeller();
    await silentCustomer(seller, "Quiet While Off");
    const before = wechat.push.sends.length;
    const tokensBefore = wechat.push.tokenRequests.length;
    const written = await remind(off);
    expect(written).toMatchObject({ digests: 1 });
    expect(written.pushed).toBeUndefined();
    expect(await pushRows(seller)).toMatchObject([{ push_state: "pending", push_attempts: 0 }]);

    // Past the maximum age the pending one is skipped, even by an instance with pushing off.
    // (The push step alone: a reminder run the next day writes that day's fresh digest.)
    tick(25 * HOUR);
    expect(await pushPendingNotifications(off)).toBeNull();
    expect(await pushRows(seller)).toMatchObject([
      { push_state: "skipped", push_attempts: 0, push_error: "stale" },
    ]);
    await pushPendingNotifications(deps);
    expect(wechat.push.sends.length).toBe(before);
    expect(wechat.push.tokenRequests.length).toBe(tokensBefore);
  });

  it("cuts long titles and names to 20 code points", async () => {
    tick();
    const seller = await wechatSeller();
    const company = "深圳市环球贸易进出口有限公司国际业务😀😀😀"; // an emoji at the cut
    await silentCustomer(seller, company);
    await remind();
    expect(messagesTo(seller)).toHaveLength(1);
    const [message] = messagesTo(seller);
    const { thing1, thing2 } = message!.data;
    expect(thing1!.value).toBe("1 customer gone qui…");
    expect(Array.from(thing2!.value)).toHaveLength(20);
    expect(thing2!.value).toBe(`${Array.from(company).slice(0, 19).join("")}…`);
    expect(thing2!.value).not.toMatch(/\p{Cs}/u); // no half of a surrogate pair
  });
});
