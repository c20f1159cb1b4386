import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { signAccessToken } from "../../src/modules/auth/tokens";
import { startFakeWechat } from "../fakes/wechat";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// Issue #21 item 3: a seller who imported 5,000 old customers got 4,743 unread customer_silent
// notifications from one reminder run. Now each run writes one digest per user (ADR 0091).

const wechat = await startFakeWechat();
afterAll(() => wechat.close());

let now = new Date("2026-07-01T08:50:00.000Z");
const clock = { now: () => now };
const DAY = 86_400_000;
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const ctx = await createTestContext({
  env: {
    WECHAT_APP_ID: wechat.appId,
    WECHAT_APP_SECRET: wechat.appSecret,
    WECHAT_API_BASE: wechat.url,
    WECHAT_TEMPLATE_ID: wechat.push.templateId,
  },
  runtime: { clock },
});
const { app, deps } = ctx;

/**
 * A Business seller (an import of 5,000 fits their customer limit) with a WeChat openid, set
 * directly rather than by a WeChat login: the fake's first connection is then the push's own
 * (an idle keep-alive socket from a login seconds earlier can be closed under a busy PGlite).
 */
async function seller() {
  const { userId } = await registerUser(app);
  const openid = `o${crypto.randomUUID().replaceAll("-", "")}`;
  await deps.db.execute(sql`update users set wechat_openid = ${openid} where id = ${userId}`);
  await deps.db.execute(
    sql`update orgs set plan = 'business',
          plan_expires_at = ${new Date(now.getTime() + 365 * DAY).toISOString()}::timestamptz
        where id = (select org_id from org_members where user_id = ${userId})`,
  );
  return { userId, openid };
}

async function remind() {
  const [outcome] = await runScheduledTasks(deps, ["customerReminders"]);
  expect(outcome).toMatchObject({ task: "customerReminders", ok: true });
  return outcome!.result as { silent: number; followups_due: number; digests: number };
}

/** The seller's notifications over HTTP (a fresh token: the clock moves past a token's life). */
async function notificationsOf(userId: string) {
  const token = await signAccessToken(deps, {
    userId,
    sessionId: crypto.randomUUID(),
    role: "user",
    isGuest: false,
  });
  const res = await call(app, "/api/v1/notifications?size=100", { token });
  expect(res.status).toBe(200);
  return res.body as {
    total: number;
    unread: number;
    items: { kind: string; title: string; body: string; data: Record<string, unknown> }[];
  };
}

describe("reminder digest", () => {
  it("turns 4,743 silent customers and 3 due follow-ups into one notification, pushed once", async () => {
    const me = await seller();
    const other = await seller();
    // The import: 4,743 customers last contacted 100 to ~575 days ago (silent: the default
    // limit is 14 days), 257 contacted yesterday, 3 with a follow-up due 1 to 3 days ago.
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at, created_at)
          select ${me.userId}::uuid, 'Old ' || g, 'contacted',
            ${ago(100 * DAY)}::timestamptz - make_interval(hours => g * 2), ${ago(DAY)}::timestamptz
          from generate_series(1, 4743) g
          union all
          select ${me.userId}::uuid, 'Recent ' || g, 'contacted', ${ago(DAY)}::timestamptz,
            ${ago(DAY)}::timestamptz
          from generate_series(1, 257) g`,
    );
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at, next_followup_at)
          select ${me.userId}::uuid, 'Due ' || g, 'contacted', ${ago(DAY)}::timestamptz,
            ${ago(0)}::timestamptz - make_interval(days => g)
          from generate_series(1, 3) g`,
    );
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at)
          values (${other.userId}::uuid, 'Elsewhere', 'new', ${ago(30 * DAY)}::timestamptz)`,
    );

    const first = await remind();

    expect(first).toMatchObject({ digests: 2 });
    expect(first.silent).toBeGreaterThanOrEqual(4744);
    expect(first.followups_due).toBeGreaterThanOrEqual(3);

    const mine = await notificationsOf(me.userId);
    expect(mine.total).toBe(1);
    expect(mine.unread).toBe(1);
    const [digest] = mine.items;
    expect(digest).toMatchObject({
      kind: "reminder_digest",
      title: "3 follow-ups due, 4,743 customers gone quiet",
      data: { silent: 4743, followups_due: 3, day: "2026-07-01" },
    });
    // The five most overdue of either kind, most overdue first: the oldest silent ones.
    const urgent = digest!.data.most_urgent as { customer_name: string; reason: string }[];
    expect(urgent.map((u) => u.customer_name)).toEqual([
      "Old 4743",
      "Old 4742",
      "Old 4741",
      "Old 4740",
      "Old 4739",
    ]);
    expect(urgent.every((u) => u.reason === "silent")).toBe(true);
    expect(digest!.body).toContain("Old 4743 (quiet");

    const theirs = await notificationsOf(other.userId);
    expect(theirs.items).toHaveLength(1);
    expect(theirs.items[0]).toMatchObject({
      title: "1 customer gone quiet",
      data: { silent: 1, followups_due: 0 },
    });

    // Pushed once: one template message to the seller.
    const pushes = () => wechat.push.messages.filter((m) => m.touser === me.openid);
    expect(pushes()).toHaveLength(1);
    expect(pushes()[0]!.data.thing1!.value).toBe("3 follow-ups due, 4…");

    // A rerun the same day (an hour later, one more customer gone quiet): still one
    // notification, its counts refreshed, no second push.
    now = new Date(now.getTime() + 3_600_000);
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at)
          values (${me.userId}::uuid, 'Newly quiet', 'new', ${ago(20 * DAY)}::timestamptz)`,
    );
    const again = await remind();
    expect(again.digests).toBe(0);
    const still = await notificationsOf(me.userId);
    expect(still.total).toBe(1);
    expect(still.items[0]!.data).toMatchObject({ silent: 4744, followups_due: 3 });
    expect(pushes()).toHaveLength(1);
    // Another hour, nothing changed: the row is not rewritten (as_of stays the last change's).
    const refreshedAt = still.items[0]!.data.as_of;
    now = new Date(now.getTime() + 3_600_000);
    expect((await remind()).digests).toBe(0);
    expect((await notificationsOf(me.userId)).items[0]!.data.as_of).toBe(refreshedAt);

    // The next day's run is a new digest (queued for its one push; the earlier one is not
    // pushed again).
    now = new Date(now.getTime() + DAY);
    expect((await remind()).digests).toBeGreaterThanOrEqual(2);
    expect((await notificationsOf(me.userId)).total).toBe(2);
    const states = await queryRows<{ day: string; push_state: string }>(
      deps.db,
      sql`select data->>'day' as day, push_state from notifications
          where user_id = ${me.userId} order by created_at`,
    );
    expect(states.map((s) => s.day)).toEqual(["2026-07-01", "2026-07-02"]);
    expect(states[0]!.push_state).toBe("sent");
    expect(["pending", "sent"]).toContain(states[1]!.push_state);
    expect(pushes().length).toBeLessThanOrEqual(2);
  }, 60_000);

  it("names the most overdue of either kind: a long-overdue follow-up beside many silent customers", async () => {
    const me = await seller();
    // Thirty silent customers (6 to 35 days past the 14-day limit: more than the walk's first
    // batches hold, each naming five) and one follow-up a year late.
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at)
          select ${me.userId}::uuid, 'Quiet ' || g, 'contacted',
            ${ago(0)}::timestamptz - make_interval(days => 19 + g)
          from generate_series(1, 30) g`,
    );
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at, next_followup_at)
          values (${me.userId}::uuid, 'Forgotten', 'contacted', ${ago(DAY)}::timestamptz,
            ${ago(365 * DAY)}::timestamptz)`,
    );
    await remind();
    const [digest] = (await notificationsOf(me.userId)).items;
    expect(digest!.data).toMatchObject({ silent: 30, followups_due: 1 });
    const urgent = digest!.data.most_urgent as { customer_name: string; overdue_days: number }[];
    expect(urgent.map((u) => u.customer_name)).toEqual([
      "Forgotten",
      "Quiet 30",
      "Quiet 29",
      "Quiet 28",
      "Quiet 27",
    ]);
    expect(urgent[0]!.overdue_days).toBe(365);
    expect(urgent[1]!.overdue_days).toBe(35);
  });

  it("writes nothing for a user with nothing due", async () => {
    const me = await seller();
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at)
          values (${me.userId}::uuid, 'Fresh', 'new', ${ago(DAY)}::timestamptz)`,
    );
    await remind();
    expect((await notificationsOf(me.userId)).total).toBe(0);
  });
});
