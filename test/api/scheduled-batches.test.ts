import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { TASK_BATCH_SIZE } from "../../src/db/batches";
import { queryRows } from "../../src/db/client";
import { refundStaleHolds } from "../../src/modules/credits/holds";
import { expireDueCredits } from "../../src/modules/credits/service";
import { notifyCustomerReminders } from "../../src/modules/customers/reminders";
import { expirePendingOrders } from "../../src/modules/payments/service/orders";
import { registerUser } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";

// The scheduled tasks work in batches (issue #13 item 4): every due row is still processed when
// there are more than one batch holds, and a row a user is changing is left for the next run.

const ctx = await createTestContext();
const { app, deps } = ctx;

async function notificationsOf(userId: string, kind: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from notifications where user_id = ${userId} and kind = ${kind}`,
  );
  return row!.n;
}

/** `count` pending orders of `userId` whose payment window closed a minute ago. */
async function overdueOrders(userId: string, count: number): Promise<string> {
  const tag = `SB${Math.random().toString(36).slice(2, 8)}`;
  await deps.db.execute(
    sql`insert into payment_transactions (order_no, user_id, kind, credits, subject, pay_type,
          provider, amount, currency, status, expires_at)
        select ${tag} || g, ${userId}, 'credits', 100, 'Credits', 'alipay', 'alipay', 1000, 'CNY',
          'pending', now() - interval '1 minute'
        from generate_series(1, ${count}) g`,
  );
  await deps.db.execute(
    sql`insert into credit_purchases (user_id, order_no, credits, amount, currency, status)
        select ${userId}, ${tag} || g, 100, 1000, 'CNY', 'pending' from generate_series(1, ${count}) g`,
  );
  return tag;
}

async function orderStatuses(tag: string) {
  return queryRows<{ status: string; purchase: string; n: number }>(
    deps.db,
    sql`select t.status, p.status as purchase, count(*)::int as n from payment_transactions t
        join credit_purchases p on p.order_no = t.order_no
        where t.order_no like ${`${tag}%`} group by 1, 2`,
  );
}

describe("scheduled tasks in batches", () => {
  it("counts every due customer into the digest when more are due than one batch, equal times included", async () => {
    const user = await registerUser(app);
    // 600 each way, all at the same instant: the walk resumes after (time, id), never skipping
    // or repeating a customer that shares the time of the last one of a batch.
    await deps.db.execute(
      sql`insert into customers (user_id, company, status, last_contact_at, next_followup_at)
          select ${user.userId}::uuid, 'Quiet ' || g, 'new', now() - interval '40 days', null
          from generate_series(1, 600) g
          union all
          select ${user.userId}::uuid, 'Due ' || g, 'contacted', now(), now() - interval '1 hour'
          from generate_series(1, 600) g`,
    );
    // Pages of 250: the walk crosses pages inside the run of equal times.
    const first = await notifyCustomerReminders(deps, { page: 250 });
    expect(first.silent).toBeGreaterThanOrEqual(600);
    expect(first.followups_due).toBeGreaterThanOrEqual(600);
    expect(first.digests).toBeGreaterThanOrEqual(1);
    expect(await notificationsOf(user.userId, "reminder_digest")).toBe(1);
    const [digest] = await queryRows<{ data: { silent: number; followups_due: number } }>(
      deps.db,
      sql`select data from notifications where user_id = ${user.userId}`,
    );
    expect(digest!.data).toMatchObject({ silent: 600, followups_due: 600 });

    // The same day: the rerun writes no second digest.
    const again = await notifyCustomerReminders(deps, { page: 250 });
    expect(again).toMatchObject({ digests: 0 });
    expect(await notificationsOf(user.userId, "reminder_digest")).toBe(1);
  });

  it("expires more overdue orders than one batch, every one with its purchase", async () => {
    const user = await registerUser(app);
    const tag = await overdueOrders(user.userId, TASK_BATCH_SIZE * 2 + 7);
    expect(await expirePendingOrders(deps)).toBeGreaterThanOrEqual(TASK_BATCH_SIZE * 2 + 7);
    expect(await orderStatuses(tag)).toEqual([
      { status: "expired", purchase: "expired", n: TASK_BATCH_SIZE * 2 + 7 },
    ]);
    expect(await expirePendingOrders(deps)).toBe(0);
  });

  it("writes off every due lot across batches, equal expiry times included, and no lot not yet due", async () => {
    const user = await registerUser(app);
    const org = sql`(select org_id from org_members where user_id = ${user.userId})`;
    // 37 lots of 3 credits due at one instant (batches start at 10 rows: the walk resumes inside
    // the run of equal times), and one lot due an hour later.
    const at = new Date(Date.UTC(2034, 5, 1, 12));
    await deps.db.execute(
      sql`insert into credit_lots (org_id, user_id, kind, granted, remaining, expires_at, source_type, source_id)
          select ${org}, ${user.userId}::uuid, 'plan_allowance', 3, 3,
            case when g = 0 then ${at.toISOString()}::timestamptz + interval '1 hour'
                 else ${at.toISOString()}::timestamptz end, 'test', 'lot-' || g
          from generate_series(0, 37) g`,
    );
    await deps.db.execute(
      sql`update org_credits set balance = balance + 38 * 3 where org_id = ${org}`,
    );
    const later = { ...deps, clock: { now: () => new Date(at.getTime() + 60_000) } };
    await expireDueCredits(later);
    const [lots] = await queryRows<{ due_left: number; later_left: number }>(
      deps.db,
      sql`select coalesce(sum(remaining) filter (where source_id <> 'lot-0'), 0)::int as due_left,
            coalesce(sum(remaining) filter (where source_id = 'lot-0'), 0)::int as later_left
          from credit_lots where user_id = ${user.userId} and source_type = 'test'`,
    );
    expect(lots).toEqual({ due_left: 0, later_left: 3 });
    // One expiry row per lot, the wallet's ledger chained to its balance.
    const rows = await queryRows<{ delta: number; balance_after: number; kind: string }>(
      deps.db,
      sql`select delta, balance_after, kind from credit_ledger where org_id = ${org}
          order by created_at, balance_after desc`,
    );
    expect(rows.filter((r) => r.kind === "expiry")).toHaveLength(37);
    const [wallet] = await queryRows<{ balance: number }>(
      deps.db,
      sql`select balance from org_credits where org_id = ${org}`,
    );
    expect(rows.at(-1)!.balance_after).toBe(wallet!.balance);
    expect(await expireDueCredits(later)).toEqual({ users: 0, credits: 0 });
  });

  it("refunds every stale hold when there are more than one batch takes, each once", async () => {
    const user = await registerUser(app);
    const count = 137; // batches start at 10 rows and grow: several batches
    await deps.db.execute(
      sql`select credit_grant(${user.userId}::uuid, 1000, 'admin_adjustment', 'admin', null, null,
            'test', null, now())`,
    );
    // Charges held by an instance whose heartbeat stopped ten minutes ago.
    await deps.db.execute(
      sql`insert into credit_holds (consumption_id, user_id, instance_id, heartbeat_at)
          select c.consumption_id, ${user.userId}::uuid, 'gone', now() - interval '10 minutes'
          from generate_series(1, ${count}) g
          cross join lateral credit_charge(${user.userId}::uuid, 2, 'consumption', 'test',
            'held ' || g, null, null, now()) c`,
    );
    const balance = async () =>
      (
        await queryRows<{ balance: number }>(
          deps.db,
          sql`select balance from user_credits where user_id = ${user.userId}`,
        )
      )[0]!.balance;
    const held = await balance();
    expect(await refundStaleHolds(deps)).toEqual({ refunded: count });
    expect(await balance()).toBe(held + 2 * count);
    expect(await refundStaleHolds(deps)).toEqual({ refunded: 0 });
    expect(await balance()).toBe(held + 2 * count);
  });

  // Row locks between two sessions: PGlite has one connection.
  it.skipIf(!onPostgres)(
    "leaves an order a payment is changing to the next run instead of waiting for it",
    async () => {
      const user = await registerUser(app);
      const tag = await overdueOrders(user.userId, 3);
      const client = new pg.Client({ connectionString: (ctx.database as { url?: string }).url! });
      await client.connect();
      try {
        await client.query("begin");
        await client.query("select 1 from payment_transactions where order_no = $1 for update", [
          `${tag}1`,
        ]);
        // Waiting on the held row would hang here until the test times out.
        expect(await expirePendingOrders(deps)).toBeGreaterThanOrEqual(2);
        expect(await orderStatuses(tag)).toEqual(
          expect.arrayContaining([
            { status: "expired", purchase: "expired", n: 2 },
            { status: "pending", purchase: "pending", n: 1 },
          ]),
        );
        await client.query("commit");
      } finally {
        await client.end();
      }
      expect(await expirePendingOrders(deps)).toBe(1);
      expect(await orderStatuses(tag)).toEqual([{ status: "expired", purchase: "expired", n: 3 }]);
    },
  );
});
