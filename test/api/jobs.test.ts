import { Cron } from "croner";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { TASK_BATCH_SIZE } from "../../src/db/batches";
import { type Db, queryRows } from "../../src/db/client";
import { CRON_EXPRESSIONS, CRON_SCHEDULES, tasksForCron } from "../../src/jobs/schedules";
import {
  downgradeExpiredPlans,
  grantSubscriptionAllowances,
  purgeExpired,
  runScheduledTasks,
} from "../../src/jobs/tasks";
import { signAccessToken } from "../../src/modules/auth/tokens";
import { createOrder } from "../../src/modules/payments/service/orders";
import type { Deps } from "../../src/ports";
import { startScheduler } from "../../src/runtime/node/scheduler";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";
import { payOrder } from "./payments-helpers";

const ctx = await createTestContext();
const { app, deps } = ctx;
const DAY = 86_400_000;
const at = (date: Date): Deps => ({ ...deps, clock: { now: () => date } });

async function subscribe(user: Session, billingCycle: "monthly" | "yearly") {
  const order = await createOrder(deps, {
    userId: user.userId,
    item: { kind: "subscription", planCode: "pro", billingCycle },
    payType: "wxpay",
  });
  await payOrder(deps, order);
  return order;
}

async function userPlan(userId: string) {
  const [row] = await queryRows<{ plan: string; plan_expires_at: Date | null }>(
    deps.db,
    sql`select plan, plan_expires_at from orgs
      where id = (select org_id from org_members where user_id = ${userId})`,
  );
  return row!;
}

/** An app whose clock reads `date`, and an access token that is valid at that time. */
async function appAt(date: Date, user: Session) {
  const later = at(date);
  const token = await signAccessToken(later, {
    userId: user.userId,
    sessionId: crypto.randomUUID(),
    role: "user",
    isGuest: false,
  });
  return { app: await ctx.makeApp({ clock: later.clock }), token };
}

async function notificationsAt(date: Date, user: Session) {
  const later = await appAt(date, user);
  return (await call(later.app, "/api/v1/notifications", { token: later.token })).body;
}

describe("scheduled tasks", () => {
  it("downgrades an ended trial once and notifies once across two runs", async () => {
    const user = await registerUser(app);
    const subscriber = await registerUser(app);
    await subscribe(subscriber, "monthly");
    const { plan_expires_at } = await userPlan(user.userId);
    const trialEnd = new Date(plan_expires_at!);

    // Before the end nothing happens to this user.
    await downgradeExpiredPlans(at(new Date(trialEnd.getTime() - 60_000)));
    expect((await userPlan(user.userId)).plan).toBe("pro");

    const later = new Date(trialEnd.getTime() + 60_000);
    const first = await downgradeExpiredPlans(at(later));
    expect(first.downgraded).toBeGreaterThanOrEqual(1);
    expect(await userPlan(user.userId)).toEqual({ plan: "free", plan_expires_at: null });
    const second = await downgradeExpiredPlans(at(later));
    expect(second.downgraded).toBe(0);
    // Even a rerun that finds the user again (state restored by hand) does not notify twice.
    await deps.db.execute(
      sql`update orgs set plan = 'pro', plan_expires_at = ${trialEnd.toISOString()}::timestamptz
          where id = (select org_id from org_members where user_id = ${user.userId})`,
    );
    await downgradeExpiredPlans(at(later));
    const notes = await notificationsAt(later, user);
    expect(notes.items.map((n: { kind: string }) => n.kind)).toEqual(["trial_ended"]);
    expect(notes.items[0].data).toMatchObject({ plan: "pro" });

    // The paying user keeps the plan while the subscription runs, and loses it after.
    expect((await userPlan(subscriber.userId)).plan).toBe("pro");
    const subEnd = new Date((await userPlan(subscriber.userId)).plan_expires_at!);
    await downgradeExpiredPlans(at(new Date(subEnd.getTime() - 60_000)));
    expect((await userPlan(subscriber.userId)).plan).toBe("pro");
    const afterSub = new Date(subEnd.getTime() + 60_000);
    await downgradeExpiredPlans(at(afterSub));
    await downgradeExpiredPlans(at(afterSub));
    expect((await userPlan(subscriber.userId)).plan).toBe("free");
    const subNotes = await notificationsAt(afterSub, subscriber);
    // Besides the payment's own payment_succeeded (payments/notices.ts), one ended notice.
    const ended = subNotes.items.filter((n: { kind: string }) => n.kind !== "payment_succeeded");
    expect(ended.map((n: { kind: string }) => n.kind)).toEqual(["subscription_ended"]);

    // Balance endpoint agrees.
    const balance = await call(app, "/api/v1/credits/balance", { token: user.accessToken });
    expect(balance.body).toMatchObject({ plan: "free", plan_expires_at: null });
  });

  it("grants the next month's allowance of a running subscription once", async () => {
    const user = await registerUser(app);
    const plans = (await call(app, "/api/v1/credits/plans")).body.items;
    const pro = plans.find((p: { code: string }) => p.code === "pro");
    expect(pro.monthly_credits).toBeGreaterThan(0);
    await subscribe(user, "yearly");
    const [sub] = await queryRows<{ starts_at: Date }>(
      deps.db,
      sql`select starts_at from subscriptions where user_id = ${user.userId}
          and billing_cycle = 'yearly'`,
    );
    const start = new Date(sub!.starts_at);
    const allowanceLots = async () =>
      (
        await queryRows<{ n: number }>(
          deps.db,
          sql`select count(*)::int as n from credit_lots where user_id = ${user.userId}
              and kind = 'plan_allowance'`,
        )
      )[0]!.n;
    // Month 0 was granted with the payment; a run in the same month adds nothing.
    expect(await allowanceLots()).toBe(1);
    await grantSubscriptionAllowances(at(new Date(start.getTime() + DAY)));
    expect(await allowanceLots()).toBe(1);

    const nextMonth = new Date(start);
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
    const rollover = new Date(nextMonth.getTime() + 60_000);
    const first = await grantSubscriptionAllowances(at(rollover));
    expect(first.credits).toBeGreaterThanOrEqual(pro.monthly_credits);
    expect(await allowanceLots()).toBe(2);
    const again = await grantSubscriptionAllowances(at(rollover));
    expect(await allowanceLots()).toBe(2);
    expect(again.credits).toBe(0);

    // Month 0's lot expires at the rollover: the balance is 30 + one month's allowance.
    await runScheduledTasks(at(rollover), ["expireCredits"]);
    const later = await appAt(rollover, user);
    const balance = await call(later.app, "/api/v1/credits/balance", { token: later.token });
    expect(balance.body.balance).toBe(30 + pro.monthly_credits);
    expect(balance.body.plan).toBe("pro");
  });

  it("expires pending orders past their window, once", async () => {
    const user = await registerUser(app);
    const [pkg] = (await call(app, "/api/v1/credits/packages")).body.items;
    const order = await createOrder(deps, {
      userId: user.userId,
      item: { kind: "credits", packageId: pkg.id },
      payType: "alipay",
    });
    const status = async () =>
      (
        await queryRows<{ status: string; purchase: string }>(
          deps.db,
          sql`select t.status, p.status as purchase from payment_transactions t
              join credit_purchases p on p.order_no = t.order_no where t.order_no = ${order.order_no}`,
        )
      )[0]!;
    const expiresAt = new Date(order.expires_at);
    await runScheduledTasks(at(new Date(expiresAt.getTime() - 1000)), ["expireOrders"]);
    expect(await status()).toEqual({ status: "pending", purchase: "pending" });
    const outcomes = await runScheduledTasks(at(new Date(expiresAt.getTime() + 1000)), [
      "expireOrders",
    ]);
    expect(outcomes).toEqual([
      expect.objectContaining({ task: "expireOrders", ok: true, result: { expired: 1 } }),
    ]);
    expect(await status()).toEqual({ status: "expired", purchase: "expired" });
    const rerun = await runScheduledTasks(at(new Date(expiresAt.getTime() + 2000)), [
      "expireOrders",
    ]);
    expect(rerun[0]!.result).toEqual({ expired: 0 });
  });

  it("purges expired payment nonces and idempotency keys", async () => {
    const now = new Date();
    const user = await registerUser(app);
    await deps.db.execute(
      sql`insert into payment_nonces (nonce, expires_at) values
            ('old-nonce-jobs', ${new Date(now.getTime() - 1000).toISOString()}::timestamptz),
            ('new-nonce-jobs', ${new Date(now.getTime() + 600_000).toISOString()}::timestamptz)`,
    );
    await deps.db.execute(
      sql`insert into idempotency_keys (user_id, key, request_hash, status, created_at, expires_at)
          values (${user.userId}, 'old-key', 'h', 'completed', ${now.toISOString()}::timestamptz,
                  ${new Date(now.getTime() - 1000).toISOString()}::timestamptz)`,
    );
    const result = await purgeExpired(at(now));
    expect(result.nonces).toBeGreaterThanOrEqual(1);
    const nonces = await queryRows<{ nonce: string }>(
      deps.db,
      sql`select nonce from payment_nonces where nonce like '%-nonce-jobs'`,
    );
    expect(nonces.map((n) => n.nonce)).toEqual(["new-nonce-jobs"]);
    const keys = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from idempotency_keys where user_id = ${user.userId}`,
    );
    expect(keys[0]!.n).toBe(0);
  });

  it("maps every cron expression to its tasks and runs them all without failing", async () => {
    for (const expression of CRON_EXPRESSIONS) {
      new Cron(expression, { paused: true, timezone: "UTC" }).stop();
    }
    // Allowances expire before new ones are granted, then plans whose time is up downgrade.
    expect(tasksForCron(CRON_SCHEDULES.trialDowngrade)).toEqual([
      "expireCredits",
      "grantAllowances",
      "trialDowngrade",
    ]);
    expect(CRON_EXPRESSIONS.length).toBeLessThanOrEqual(5);
    expect(tasksForCron("1 2 3 4 5")).toEqual([]);
    const all = CRON_EXPRESSIONS.flatMap(tasksForCron);
    expect(all.sort()).toEqual(Object.keys(CRON_SCHEDULES).sort());
    const outcomes = await runScheduledTasks(deps, all);
    expect(outcomes.every((o) => o.ok)).toBe(true);
  });

  // Started: each expression is armed (the start line lists it with its next run), and at the next
  // minute the every-minute tasks run and report. Stopped: stop() waits for that run, and no task
  // starts afterwards however long the clock runs. Only setTimeout and Date are faked (croner arms
  // one timeout per job); the tasks' database work runs on the real event loop.
  it("starts and stops the Node scheduler", async () => {
    const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
    const record = (msg: string, fields?: Record<string, unknown>) =>
      void lines.push({ msg, fields });
    let clockReads = 0;
    const scheduled = {
      ...deps,
      logger: { debug: record, info: record, warn: record, error: record },
      // The first thing a run does (expireOrders) is read the clock: a started run counts here.
      clock: {
        now: () => {
          clockReads += 1;
          return new Date();
        },
      },
    };
    const minute = 60_000;
    const nextMinute = Math.ceil((Date.now() + 1) / minute) * minute;
    vi.useFakeTimers({ now: nextMinute - 1_000, toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const scheduler = startScheduler(scheduled);
      expect(lines).toEqual([
        {
          msg: "scheduler started",
          fields: { jobs: CRON_EXPRESSIONS.map((cron) => ({ cron, next: expect.any(String) })) },
        },
      ]);
      expect(vi.getTimerCount()).toBeGreaterThanOrEqual(CRON_EXPRESSIONS.length);
      expect(clockReads).toBe(0);

      await vi.advanceTimersByTimeAsync(1_500);
      expect(clockReads).toBeGreaterThan(0);
      await scheduler.stop();
      const reported = lines
        .filter((line) => line.msg === "scheduled task done")
        .map((line) => line.fields?.task);
      // Every minute's tasks, and the hourly (or daily) ones too when that minute is theirs.
      const due = CRON_EXPRESSIONS.filter(
        (cron) =>
          new Cron(cron, { timezone: "UTC" }).nextRun(new Date(nextMinute - 1_000))?.getTime() ===
          nextMinute,
      ).flatMap((cron) => tasksForCron(cron));
      expect(due).toEqual(expect.arrayContaining(tasksForCron("* * * * *")));
      expect(reported.toSorted()).toEqual(due.toSorted());

      const readsAtStop = clockReads;
      const linesAtStop = lines.length;
      await vi.advanceTimersByTimeAsync(3 * 60 * minute);
      expect(clockReads).toBe(readsAtStop);
      expect(lines).toHaveLength(linesAtStop);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("task statements and users' own writes", () => {
  it("downgrades more due users than one batch holds, every one of them", async () => {
    const count = TASK_BATCH_SIZE + 20;
    const tag = Math.random().toString(36).slice(2, 8);
    await deps.db.execute(
      sql`insert into users (is_guest, referral_code)
          select true, ${`b${tag}`} || g from generate_series(1, ${count}) g`,
    );
    // The plan is the organisation's (ADR 0101): each of them got a personal one.
    await deps.db.execute(
      sql`update orgs set plan = 'pro', plan_expires_at = now() - interval '1 day'
          where id in (select m.org_id from org_members m join users u on u.id = m.user_id
                       where u.referral_code like ${`b${tag}%`})`,
    );
    const result = await downgradeExpiredPlans(deps);
    expect(result.downgraded).toBeGreaterThanOrEqual(count);
    const [left] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from users u
          join org_members m on m.user_id = u.id join orgs o on o.id = m.org_id
          where u.referral_code like ${`b${tag}%`} and o.plan <> 'free'`,
    );
    expect(left!.n).toBe(0);
  });

  // A downgrade batch holds its row locks until it commits. `for update` would block the
  // `for key share` of a foreign key check, so a user adding a customer would wait on the task.
  // PostgreSQL only: it is about row-lock modes between two sessions, and PGlite has one
  // connection (an open transaction there would block every other query, whatever the lock).
  it.skipIf(!onPostgres)(
    "lets a user add a customer while a downgrade batch holds their row",
    async () => {
      const user = await registerUser(app);
      await deps.db.execute(
        sql`update orgs set plan = 'pro', plan_expires_at = now() - interval '1 hour'
          where id = (select org_id from org_members where user_id = ${user.userId})`,
      );
      const client = new pg.Client({
        connectionString: (ctx.database as { url?: string }).url!,
      });
      await client.connect();
      let write: Promise<{ status: number }> | undefined;
      try {
        await client.query("begin");
        const inTransaction = drizzle({ client }) as unknown as Db;
        const result = await downgradeExpiredPlans({ ...deps, db: inTransaction });
        expect(result.downgraded).toBeGreaterThanOrEqual(1);
        write = call(app, "/api/v1/customers", {
          json: { company: "Waits for nobody Ltd" },
          token: user.accessToken,
          csrf: user.csrfToken,
        });
        const outcome = await Promise.race([
          write,
          new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 3000)),
        ]);
        expect(outcome).not.toBe("waited");
        expect((outcome as { status: number }).status).toBe(201);
      } finally {
        await client.query("rollback");
        await client.end();
        await write;
      }
    },
  );
});
