import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import { queryRows } from "../../src/db/client";
import { pendingMail } from "../../src/modules/account/service";
import type { MailMessage } from "../../src/providers/mail/types";
import {
  call,
  expectStatus,
  randomIp,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

/** Every mail the app sent; verification links are read from here. */
const mails: MailMessage[] = [];
const ctx = await createTestContext({
  env: { FRONTEND_URL: "https://app.example.com/", PUBLIC_BASE_URL: "https://api.example.com" },
  runtime: {
    mailer: {
      kind: "log",
      send: async (message) => {
        mails.push(message);
      },
    },
  },
});
const { app, deps } = ctx;
const DAY = 86_400_000;
const REWARD_DAYS = 5;

async function setConfig(key: string, value: unknown) {
  await deps.db.execute(
    sql`update system_config set value = ${JSON.stringify(value)}::jsonb where key = ${key}`,
  );
}
await setConfig("referral.reward_days", REWARD_DAYS);

/** The token of the newest verification mail to `email`. */
async function verificationToken(email: string) {
  await pendingMail();
  const mail = mails.findLast((m) => m.to === email && m.text.includes("/verify-email?token="));
  expect(mail).toBeDefined();
  return decodeURIComponent(/\/verify-email\?token=([^\s&"<]+)/.exec(mail!.text)![1]!);
}

/**
 * The referred account opens its verification link in its own session (POST
 * /auth/verify-email with its token, so the session is kept: ADR 0084).
 */
async function verify(
  session: Pick<Session, "email"> & { accessToken?: string },
  target: App = app,
) {
  const token = await verificationToken(session.email);
  return call(target, "/api/v1/auth/verify-email", {
    json: { token },
    ip: randomIp(),
    token: session.accessToken,
  });
}

async function planOf(userId: string) {
  const [row] = await queryRows<{ plan: string; plan_expires_at: Date | null; trial: Date | null }>(
    deps.db,
    sql`select plan, plan_expires_at, trial_ends_at as trial from orgs
      where id = (select org_id from org_members where user_id = ${userId})`,
  );
  return {
    plan: row!.plan,
    ends: row!.plan_expires_at ? new Date(row!.plan_expires_at).getTime() : null,
    trial: row!.trial ? new Date(row!.trial).getTime() : null,
  };
}

async function referralSubs(userId: string) {
  return queryRows<{ plan_code: string; starts_at: Date; ends_at: Date; monthly_credits: number }>(
    deps.db,
    sql`select plan_code, starts_at, ends_at, monthly_credits from subscriptions
        where user_id = ${userId} and billing_cycle = 'referral' order by starts_at`,
  );
}

async function rewardsOf(referrerId: string) {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from referral_rewards where referrer_id = ${referrerId}`,
  );
  return row!.n;
}

const referrals = (token: string, target = app) => call(target, "/api/v1/referrals", { token });
/** GET /referrals that must succeed, typed by the OpenAPI document (ADR 0095). */
async function referralsOk(token: string, target = app) {
  const answer = await typed(target).get("/api/v1/referrals", { token });
  expectStatus(answer, 200);
  return answer;
}
async function notificationsOf(user: Session) {
  const answer = await typed(app).get("/api/v1/notifications", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer;
}

async function referrerWithCode() {
  const referrer = await registerUser(app);
  const info = await referralsOk(referrer.accessToken);
  return { ...referrer, code: info.body.code };
}

describe("referral link", () => {
  it("points at FRONTEND_URL, never at the request's host", async () => {
    const referrer = await registerUser(app);
    const info = await typed(app).get("/api/v1/referrals", {
      token: referrer.accessToken,
      headers: { Host: "evil.example.net" },
    });
    expectStatus(info, 200);
    const code = info.body.code;
    expect(info.body).toEqual({
      code: expect.stringMatching(/^[A-Z2-9]{8}$/),
      link: `https://app.example.com/register?ref=${code}`,
      reward_days: REWARD_DAYS,
      referrals: [],
      referral_count: 0,
      total_days_earned: 0,
    });
    const apiOnly = await ctx.makeApp({}, { FRONTEND_URL: "" });
    expect((await referralsOk(referrer.accessToken, apiOnly)).body.link).toBe(
      `https://api.example.com/register?ref=${code}`,
    );
    const bare = await ctx.makeApp({}, { FRONTEND_URL: "", PUBLIC_BASE_URL: "", PORT: "8123" });
    expect((await referralsOk(referrer.accessToken, bare)).body.link).toBe(
      `http://localhost:8123/register?ref=${code}`,
    );
  });
});

describe("referral rewards", () => {
  it("gives nothing for registrations until the referred account verifies its address", async () => {
    const referrer = await referrerWithCode();
    const before = await planOf(referrer.userId);
    const ips = [randomIp(), randomIp()];
    const friends = [];
    for (let i = 0; i < 6; i++) {
      friends.push(await registerUser(app, { referral_code: referrer.code, ip: ips[i % 2] }));
    }
    // Throwaway registrations earn nobody anything: the referral is only recorded.
    expect(await planOf(referrer.userId)).toEqual(before);
    expect(await rewardsOf(referrer.userId)).toBe(0);
    expect(await referralSubs(referrer.userId)).toEqual([]);
    for (const friend of friends) {
      const plan = await planOf(friend.userId);
      expect(plan.ends).toBe(plan.trial); // the plain trial, no bonus
      const [row] = await queryRows<{ referred_by: string }>(
        deps.db,
        sql`select referred_by from users where id = ${friend.userId}`,
      );
      expect(row!.referred_by).toBe(referrer.userId);
    }
    expect((await referralsOk(referrer.accessToken)).body).toMatchObject({
      referral_count: 0,
      total_days_earned: 0,
    });
  });

  it("rewards both parties when the friend verifies, once, and notifies the referrer", async () => {
    const referrer = await referrerWithCode();
    const before = await planOf(referrer.userId);
    const friend = await registerUser(app, {
      email: `friend-${Date.now()}@example.com`,
      referral_code: referrer.code.toLowerCase(),
    });
    const friendBefore = await planOf(friend.userId);

    expect((await verify(friend)).status).toBe(200);
    const friendAfter = await planOf(friend.userId);
    expect(friendAfter.plan).toBe("pro");
    expect(friendAfter.ends! - friendBefore.ends!).toBe(REWARD_DAYS * DAY);
    const after = await planOf(referrer.userId);
    expect(after.plan).toBe("pro");
    expect(after.ends! - before.ends!).toBe(REWARD_DAYS * DAY);

    const [referrerSub] = await referralSubs(referrer.userId);
    expect(referrerSub).toMatchObject({ plan_code: "pro", monthly_credits: 0 });
    expect(new Date(referrerSub!.starts_at).getTime()).toBe(before.ends);
    expect(new Date(referrerSub!.ends_at).getTime()).toBe(after.ends);
    const [friendSub] = await referralSubs(friend.userId);
    expect(new Date(friendSub!.starts_at).getTime()).toBe(friendBefore.ends);
    expect(new Date(friendSub!.ends_at).getTime()).toBe(friendAfter.ends);

    const listed = await referralsOk(referrer.accessToken);
    expect(listed.body).toMatchObject({ referral_count: 1, total_days_earned: REWARD_DAYS });
    expect(listed.body.referrals).toEqual([
      {
        user_id: friend.userId,
        name: expect.stringMatching(/^fr\*\*\*@example\.com$/),
        rewarded_at: expect.any(String),
        days: REWARD_DAYS,
      },
    ]);
    expect((await referralsOk(friend.accessToken)).body).toMatchObject({
      referral_count: 0,
      total_days_earned: REWARD_DAYS,
    });
    const notes = await notificationsOf(referrer);
    expect(notes.body.items).toEqual([
      expect.objectContaining({
        kind: "referral_rewarded",
        data: expect.objectContaining({ referred_id: friend.userId, days: REWARD_DAYS, count: 1 }),
      }),
    ]);

    // The link again changes nothing (it is used up; a later one would not be a first).
    expect((await verify(friend)).status).toBe(400);
    expect(await planOf(referrer.userId)).toEqual(after);
    expect(await planOf(friend.userId)).toEqual(friendAfter);
    expect(await rewardsOf(referrer.userId)).toBe(1);
    // The database itself refuses a second reward for a referred user, and a self-referral.
    await expect(
      deps.db.execute(
        sql`insert into referral_rewards (referrer_id, referred_id, days)
            values (${referrer.userId}, ${friend.userId}, 1)`,
      ),
    ).rejects.toThrow();
    await expect(
      deps.db.execute(
        sql`insert into referral_rewards (referrer_id, referred_id, days)
            values (${friend.userId}, ${friend.userId}, 1)`,
      ),
    ).rejects.toThrow();
  });

  it("caps what a referrer earns per calendar month; the friends still get their days", async () => {
    await setConfig("referral.monthly_cap", 3);
    try {
      const referrer = await referrerWithCode();
      const before = await planOf(referrer.userId);
      const friends = [];
      for (let i = 0; i < 5; i++) {
        friends.push(await registerUser(app, { referral_code: referrer.code }));
      }
      for (const friend of friends) expect((await verify(friend)).status).toBe(200);
      expect(await rewardsOf(referrer.userId)).toBe(3);
      expect((await planOf(referrer.userId)).ends! - before.ends!).toBe(3 * REWARD_DAYS * DAY);
      expect(await referralSubs(referrer.userId)).toHaveLength(3);
      for (const friend of friends) {
        const plan = await planOf(friend.userId);
        expect(plan.ends! - plan.trial!).toBe(REWARD_DAYS * DAY);
      }
      const notes = await notificationsOf(referrer);
      expect(notes.body.items).toHaveLength(1);
      expect(notes.body.items[0]!.data).toMatchObject({ count: 3, cap: 3 });
      expect(notes.body.items[0]!.body).toMatch(/3 of 3 referral rewards this month/);

      // Next calendar month the referrer can earn again.
      const now = new Date();
      const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
      const nextApp = await ctx.makeApp({ clock: { now: () => nextMonth } });
      const later = await registerUser(nextApp, { referral_code: referrer.code });
      expect((await verify(later, nextApp)).status).toBe(200);
      expect(await rewardsOf(referrer.userId)).toBe(4);
    } finally {
      await setConfig("referral.monthly_cap", 5);
    }
  });

  it("holds the cap when many friends verify at the same moment", async () => {
    await setConfig("referral.monthly_cap", 3);
    try {
      const referrer = await referrerWithCode();
      const before = await planOf(referrer.userId);
      const friends = [];
      for (let i = 0; i < 8; i++) {
        friends.push(await registerUser(app, { referral_code: referrer.code }));
      }
      const tokens = await Promise.all(friends.map((f) => verificationToken(f.email)));
      const verified = await Promise.all(
        tokens.map((token) =>
          typed(app).post("/api/v1/auth/verify-email", { json: { token }, ip: randomIp() }),
        ),
      );
      expect(verified.map((r) => r.status)).toEqual(friends.map(() => 200));
      expect(await rewardsOf(referrer.userId)).toBe(3);
      expect((await planOf(referrer.userId)).ends! - before.ends!).toBe(3 * REWARD_DAYS * DAY);
      expect(await referralSubs(referrer.userId)).toHaveLength(3);
      expect((await referralsOk(referrer.accessToken)).body).toMatchObject({
        referral_count: 3,
        total_days_earned: 3 * REWARD_DAYS,
      });
    } finally {
      await setConfig("referral.monthly_cap", 5);
    }
  });

  it("gives a free referrer the paid tier from now", async () => {
    const referrer = await referrerWithCode();
    await deps.db.execute(
      sql`update orgs set plan = 'free', plan_expires_at = null
          where id = (select org_id from org_members where user_id = ${referrer.userId})`,
    );
    const friend = await registerUser(app, { referral_code: referrer.code });
    const started = Date.now();
    expect((await verify(friend)).status).toBe(200);
    const after = await planOf(referrer.userId);
    expect(after.plan).toBe("pro");
    expect(after.ends!).toBeGreaterThanOrEqual(started + REWARD_DAYS * DAY - 1000);
    expect(after.ends!).toBeLessThanOrEqual(Date.now() + REWARD_DAYS * DAY + 1000);
  });

  it("does not let a guest refer: their code is refused at registration", async () => {
    const guest = await typed(app).post("/api/v1/auth/guest", { ip: randomIp() });
    expectStatus(guest, 201);
    const [row] = await queryRows<{ referral_code: string }>(
      deps.db,
      sql`select referral_code from users where id = ${guest.body.user.id}`,
    );
    const res = await call(app, "/api/v1/auth/register", {
      json: {
        email: `g-${Date.now()}@example.com`,
        password: "whatever123",
        referral_code: row!.referral_code,
      },
      ip: randomIp(),
    });
    expect(res.status).toBe(422);
    expect((await referrals(guest.body.access_token)).status).toBe(403);
    const unknown = await call(app, "/api/v1/auth/register", {
      json: {
        email: `u-${Date.now()}@example.com`,
        password: "whatever123",
        referral_code: "ZZZZZZZZ",
      },
      ip: randomIp(),
    });
    expect(unknown.status).toBe(422);
  });

  it("gives no reward when reward_days is 0", async () => {
    await setConfig("referral.reward_days", 0);
    try {
      const referrer = await referrerWithCode();
      const before = await planOf(referrer.userId);
      const friend = await registerUser(app, { referral_code: referrer.code });
      const friendBefore = await planOf(friend.userId);
      expect((await verify(friend)).status).toBe(200);
      expect(await planOf(referrer.userId)).toEqual(before);
      expect(await planOf(friend.userId)).toEqual(friendBefore);
      expect(await referralSubs(friend.userId)).toEqual([]);
      expect(await rewardsOf(referrer.userId)).toBe(0);
    } finally {
      await setConfig("referral.reward_days", REWARD_DAYS);
    }
  });
});
