import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, randomIp, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext({ env: { PUBLIC_BASE_URL: "https://app.example.com/" } });
const { app, deps } = ctx;
const DAY = 86_400_000;
const REWARD_DAYS = 5;

await deps.db.execute(
  sql`update system_config set value = ${JSON.stringify(REWARD_DAYS)}::jsonb
      where key = 'referral.reward_days'`,
);

async function planOf(userId: string) {
  const [row] = await queryRows<{ plan: string; plan_expires_at: Date | null }>(
    deps.db,
    sql`select plan, plan_expires_at from users where id = ${userId}`,
  );
  return { plan: row!.plan, ends: row!.plan_expires_at ? new Date(row!.plan_expires_at) : null };
}

async function referralSubs(userId: string) {
  return queryRows<{ plan_code: string; starts_at: Date; ends_at: Date; monthly_credits: number }>(
    deps.db,
    sql`select plan_code, starts_at, ends_at, monthly_credits from subscriptions
        where user_id = ${userId} and billing_cycle = 'referral' order by starts_at`,
  );
}

const referrals = (token: string) => call(app, "/api/v1/referrals", { token });

describe("referrals", () => {
  it("rewards both parties once with reward_days of the paid tier, and notifies the referrer", async () => {
    const referrer = await registerUser(app);
    const before = await planOf(referrer.userId);
    const info = await referrals(referrer.accessToken);
    expect(info.status).toBe(200);
    const code = info.body.code;
    expect(info.body).toEqual({
      code: expect.stringMatching(/^[A-Z2-9]{8}$/),
      link: `https://app.example.com/register?ref=${code}`,
      reward_days: REWARD_DAYS,
      referrals: [],
      referral_count: 0,
      total_days_earned: 0,
    });

    const friend = await registerUser(app, {
      email: `friend-${Date.now()}@example.com`,
      referral_code: code.toLowerCase(),
    });
    // The friend's trial is extended by exactly the reward.
    const friendPlan = await planOf(friend.userId);
    const [friendRow] = await queryRows<{ trial_ends_at: Date }>(
      deps.db,
      sql`select trial_ends_at from users where id = ${friend.userId}`,
    );
    expect(friendPlan.plan).toBe("pro");
    expect(friendPlan.ends!.getTime() - new Date(friendRow!.trial_ends_at).getTime()).toBe(
      REWARD_DAYS * DAY,
    );
    // The referrer's plan end moves by exactly the reward (they were on their trial).
    const after = await planOf(referrer.userId);
    expect(after.plan).toBe("pro");
    expect(after.ends!.getTime() - before.ends!.getTime()).toBe(REWARD_DAYS * DAY);
    // A referral subscription row for each party, with no allowance.
    const [referrerSub] = await referralSubs(referrer.userId);
    expect(referrerSub).toMatchObject({ plan_code: "pro", monthly_credits: 0 });
    expect(new Date(referrerSub!.starts_at).getTime()).toBe(before.ends!.getTime());
    expect(new Date(referrerSub!.ends_at).getTime()).toBe(after.ends!.getTime());
    const [friendSub] = await referralSubs(friend.userId);
    expect(new Date(friendSub!.ends_at).getTime()).toBe(friendPlan.ends!.getTime());

    const listed = await referrals(referrer.accessToken);
    expect(listed.body).toMatchObject({ referral_count: 1, total_days_earned: REWARD_DAYS });
    expect(listed.body.referrals).toEqual([
      {
        user_id: friend.userId,
        name: expect.stringMatching(/^fr\*\*\*@example\.com$/),
        rewarded_at: expect.any(String),
        days: REWARD_DAYS,
      },
    ]);
    const friendInfo = await referrals(friend.accessToken);
    expect(friendInfo.body).toMatchObject({ referral_count: 0, total_days_earned: REWARD_DAYS });

    const notes = await call(app, "/api/v1/notifications", { token: referrer.accessToken });
    expect(notes.body.items).toEqual([
      expect.objectContaining({
        kind: "referral_rewarded",
        data: { referred_id: friend.userId, days: REWARD_DAYS },
      }),
    ]);
  });

  it("rewards each new pair for the same code, never the same referred user twice", async () => {
    const referrer = await registerUser(app);
    const before = await planOf(referrer.userId);
    const { code } = (await referrals(referrer.accessToken)).body;
    const first = await registerUser(app, { referral_code: code });
    const second = await registerUser(app, { referral_code: code });
    const after = await planOf(referrer.userId);
    expect(after.ends!.getTime() - before.ends!.getTime()).toBe(2 * REWARD_DAYS * DAY);
    expect(await referralSubs(referrer.userId)).toHaveLength(2);
    const listed = await referrals(referrer.accessToken);
    expect(listed.body).toMatchObject({ referral_count: 2, total_days_earned: 2 * REWARD_DAYS });
    expect(listed.body.referrals.map((r: { user_id: string }) => r.user_id)).toEqual([
      second.userId,
      first.userId,
    ]);

    // Registering the same email again is a 409 and rewards nobody.
    const again = await call(app, "/api/v1/auth/register", {
      json: { email: first.email, password: "whatever123", referral_code: code },
      ip: randomIp(),
    });
    expect(again.status).toBe(409);
    const rows = await queryRows<{ referred_id: string; n: number }>(
      deps.db,
      sql`select referred_id, count(*)::int as n from referral_rewards
          where referrer_id = ${referrer.userId} group by referred_id`,
    );
    expect(rows.map((r) => r.n)).toEqual([1, 1]);
    expect((await planOf(referrer.userId)).ends).toEqual(after.ends);
    // The database itself refuses a second reward for a referred user, and a self-referral.
    await expect(
      deps.db.execute(
        sql`insert into referral_rewards (referrer_id, referred_id, days)
            values (${second.userId}, ${first.userId}, 1)`,
      ),
    ).rejects.toThrow();
    await expect(
      deps.db.execute(
        sql`insert into referral_rewards (referrer_id, referred_id, days)
            values (${first.userId}, ${first.userId}, 1)`,
      ),
    ).rejects.toThrow();
  });

  it("gives a free referrer the paid tier from now", async () => {
    const referrer = await registerUser(app);
    await deps.db.execute(
      sql`update users set plan = 'free', plan_expires_at = null where id = ${referrer.userId}`,
    );
    const { code } = (await referrals(referrer.accessToken)).body;
    const started = Date.now();
    await registerUser(app, { referral_code: code });
    const after = await planOf(referrer.userId);
    expect(after.plan).toBe("pro");
    const ends = after.ends!.getTime();
    expect(ends).toBeGreaterThanOrEqual(started + REWARD_DAYS * DAY - 1000);
    expect(ends).toBeLessThanOrEqual(Date.now() + REWARD_DAYS * DAY + 1000);
  });

  it("does not let a guest refer: their code is refused at registration", async () => {
    const guest = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
    expect(guest.status).toBe(201);
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
    const rewards = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from referral_rewards where referrer_id = ${guest.body.user.id}`,
    );
    expect(rewards[0]!.n).toBe(0);
    const page = await referrals(guest.body.access_token);
    expect(page.status).toBe(403);
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
    await deps.db.execute(
      sql`update system_config set value = '0'::jsonb where key = 'referral.reward_days'`,
    );
    try {
      const referrer = await registerUser(app);
      const before = await planOf(referrer.userId);
      const { code } = (await referrals(referrer.accessToken)).body;
      const friend = await registerUser(app, { referral_code: code });
      expect((await planOf(referrer.userId)).ends).toEqual(before.ends);
      expect(await referralSubs(friend.userId)).toEqual([]);
      expect((await referrals(referrer.accessToken)).body.referral_count).toBe(0);
    } finally {
      await deps.db.execute(
        sql`update system_config set value = ${JSON.stringify(REWARD_DAYS)}::jsonb
            where key = 'referral.reward_days'`,
      );
    }
  });
});
