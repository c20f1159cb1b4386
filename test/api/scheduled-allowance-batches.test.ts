import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { grantSubscriptionAllowances } from "../../src/jobs/tasks";
import type { Deps } from "../../src/ports";
import { registerUser } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;
const at = (date: Date): Deps => ({ ...deps, clock: { now: () => date } });

/** More than one batch's worth (db/batches.ts starts at 10 rows a batch). */
const SUBSCRIPTIONS = 25;
const MONTHLY = 7;

describe("monthly allowances, set-based in batches", () => {
  it("grants every running subscription once, each wallet's ledger chained across batches", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const start = new Date(Date.UTC(2031, 0, 31, 12));
    // Many subscriptions on one wallet (so its grants span batches), one on another, and one
    // cancelled and one ended that get nothing. Month 0 was granted "with the payment" for none
    // of them here: the run grants the month each is in.
    await deps.db.execute(sql`insert into subscriptions (user_id, plan_code, billing_cycle,
        monthly_credits, starts_at, ends_at, cancelled_at)
      select ${owner.userId}::uuid, 'pro', 'monthly', ${MONTHLY}::int, ${start.toISOString()}::timestamptz,
        ${start.toISOString()}::timestamptz + interval '1 year',
        case when i = 1 then ${start.toISOString()}::timestamptz end
      from generate_series(1, ${SUBSCRIPTIONS}::int) i
      union all
      select ${other.userId}::uuid, 'pro', 'monthly', ${MONTHLY * 2}::int, ${start.toISOString()}::timestamptz,
        ${start.toISOString()}::timestamptz + interval '1 year', null
      union all
      select ${other.userId}::uuid, 'pro', 'monthly', 99, ${start.toISOString()}::timestamptz,
        ${start.toISOString()}::timestamptz + interval '10 days', null`);
    const balance = async (userId: string) =>
      (
        await queryRows<{ balance: number }>(
          deps.db,
          sql`select balance from user_credits where user_id = ${userId}`,
        )
      )[0]?.balance ?? 0;
    const before = { owner: await balance(owner.userId), other: await balance(other.userId) };

    // 2031-02-28: one month after Jan 31, clamped to February's end (month 1).
    const run = at(new Date(Date.UTC(2031, 1, 28, 13)));
    const first = await grantSubscriptionAllowances(run);
    expect(first).toEqual({
      grants: SUBSCRIPTIONS,
      credits: (SUBSCRIPTIONS - 1) * MONTHLY + MONTHLY * 2,
    });
    expect(await balance(owner.userId)).toBe(before.owner + (SUBSCRIPTIONS - 1) * MONTHLY);
    expect(await balance(other.userId)).toBe(before.other + MONTHLY * 2);

    const lots = await queryRows<{ source_id: string; expires_at: Date }>(
      deps.db,
      sql`select source_id, expires_at from credit_lots
          where source_type = 'subscription' and user_id in (${owner.userId}, ${other.userId})`,
    );
    expect(lots).toHaveLength(SUBSCRIPTIONS);
    for (const lot of lots) {
      expect(lot.source_id).toMatch(/:1$/);
      expect(new Date(lot.expires_at).toISOString()).toBe("2031-03-31T12:00:00.000Z");
    }

    // Each wallet's ledger is a chain: every row's balance_after is the one before plus its
    // delta, and the last is the wallet's balance (the grants of several batches included).
    for (const user of [owner, other]) {
      const rows = await queryRows<{ delta: number; balance_after: number }>(
        deps.db,
        sql`select delta, balance_after from credit_ledger
            where org_id = (select org_id from org_members where user_id = ${user.userId})
            order by created_at, balance_after`,
      );
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i]!.balance_after).toBe(rows[i - 1]!.balance_after + rows[i]!.delta);
      }
      expect(rows.at(-1)!.balance_after).toBe(await balance(user.userId));
    }

    // A rerun in the same month: nothing due, nothing written.
    expect(await grantSubscriptionAllowances(run)).toEqual({ grants: 0, credits: 0 });
    expect(await balance(owner.userId)).toBe(before.owner + (SUBSCRIPTIONS - 1) * MONTHLY);
  });

  it("looks at a subscription again when its next month starts, when it starts, and when its period moves", async () => {
    const user = await registerUser(app);
    const iso = (d: string) => new Date(d).toISOString();
    // A two-month subscription, and its renewal starting when it ends.
    const [first] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into subscriptions (user_id, plan_code, billing_cycle, monthly_credits, starts_at, ends_at)
          values (${user.userId}::uuid, 'pro', 'monthly', 5, ${iso("2032-01-15T12:00:00Z")}::timestamptz,
            ${iso("2032-03-15T12:00:00Z")}::timestamptz) returning id`,
    );
    const [renewal] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into subscriptions (user_id, plan_code, billing_cycle, monthly_credits, starts_at, ends_at)
          values (${user.userId}::uuid, 'pro', 'monthly', 11, ${iso("2032-03-15T12:00:00Z")}::timestamptz,
            ${iso("2032-04-15T12:00:00Z")}::timestamptz) returning id`,
    );
    const dueAt = async (id: string) => {
      const [row] = await queryRows<{ at: string }>(
        deps.db,
        sql`select case when allowance_due_at = 'infinity' then 'infinity'
              else to_char(allowance_due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end as at
            from subscriptions where id = ${id}`,
      );
      return row!.at === "infinity" ? "infinity" : new Date(row!.at).toISOString();
    };
    const granted = async () =>
      (
        await queryRows<{ source_id: string }>(
          deps.db,
          sql`select source_id from credit_ledger where kind = 'plan_allowance'
              and user_id = ${user.userId} order by source_id`,
        )
      ).map((r) => r.source_id);

    await grantSubscriptionAllowances(at(new Date("2032-01-20T00:00:00Z")));
    expect(await granted()).toEqual([`${first!.id}:0`]);
    expect(await dueAt(first!.id)).toBe(iso("2032-02-15T12:00:00Z"));
    expect(await dueAt(renewal!.id)).toBe(iso("2032-03-15T12:00:00Z"));

    // Before the next month: nothing is due, nothing moves.
    await grantSubscriptionAllowances(at(new Date("2032-02-10T00:00:00Z")));
    expect(await granted()).toEqual([`${first!.id}:0`]);

    // Its last month: granted, and then nothing is left of its period.
    await grantSubscriptionAllowances(at(new Date("2032-02-16T00:00:00Z")));
    expect(await granted()).toEqual([`${first!.id}:0`, `${first!.id}:1`].sort());
    expect(await dueAt(first!.id)).toBe("infinity");

    // Its period is extended (by hand here): the trigger brings it back, and the next run
    // grants its third month beside the renewal's first.
    await deps.db.execute(
      sql`update subscriptions set ends_at = ${iso("2032-05-15T12:00:00Z")}::timestamptz
          where id = ${first!.id}`,
    );
    expect(await dueAt(first!.id)).not.toBe("infinity");
    await grantSubscriptionAllowances(at(new Date("2032-03-16T00:00:00Z")));
    expect(await granted()).toEqual(
      [`${first!.id}:0`, `${first!.id}:1`, `${first!.id}:2`, `${renewal!.id}:0`].sort(),
    );
    expect(await dueAt(first!.id)).toBe(iso("2032-04-15T12:00:00Z"));
    expect(await dueAt(renewal!.id)).toBe("infinity");
  });

  // Row locks between two sessions: PGlite has one connection.
  it.skipIf(!onPostgres)(
    "leaves a subscription whose wallet a charge holds to the next run instead of waiting for it",
    async () => {
      const user = await registerUser(app);
      const start = "2033-01-10T00:00:00.000Z";
      await deps.db.execute(sql`insert into subscriptions (user_id, plan_code, billing_cycle,
          monthly_credits, starts_at, ends_at)
        values (${user.userId}::uuid, 'pro', 'monthly', 13, ${start}::timestamptz,
          ${start}::timestamptz + interval '1 year')`);
      const grants = async () =>
        (
          await queryRows<{ n: number }>(
            deps.db,
            sql`select count(*)::int as n from credit_ledger
                where kind = 'plan_allowance' and user_id = ${user.userId}`,
          )
        )[0]!.n;
      const run = at(new Date("2033-01-11T00:00:00.000Z"));
      const client = new pg.Client({ connectionString: (ctx.database as { url?: string }).url! });
      await client.connect();
      try {
        await client.query("begin");
        await client.query(
          `select 1 from org_credits where org_id = (select org_id from org_members
             where user_id = $1) for update`,
          [user.userId],
        );
        // Waiting on the held wallet would hang here until the test times out.
        await grantSubscriptionAllowances(run);
        expect(await grants()).toBe(0);
        await client.query("commit");
      } finally {
        await client.end();
      }
      await grantSubscriptionAllowances(run);
      expect(await grants()).toBe(1);
    },
  );
});
