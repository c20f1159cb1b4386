import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { grantSubscriptionAllowances } from "../../src/jobs/tasks";
import type { Deps } from "../../src/ports";
import { registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

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
});
