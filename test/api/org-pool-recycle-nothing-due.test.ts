import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { recyclePoolCustomers } from "../../src/modules/customers/pool/recycle";
import { createTestContext } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// The recycle's shortcut (issue #25 item 7): the oldest held customer's clock, one probe of
// customers_held_clock_idx, says when nothing can be due, so a run with nothing to do reads
// neither the organisations nor their customers. Its bound is the cutoff less the shortest
// warning (else recycle) days: a warning window that ends at the cutoff itself (warn_days_before
// = recycle_after_days) is still found.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const D0 = Date.parse("2026-07-01T00:00:00.000Z");
const ctx = await createTestContext({ runtime: { clock: { now: () => new Date(D0 + 3 * HOUR) } } });
const { deps, database } = ctx;
const db = database.db;
const runOn = (day: number) => recyclePoolCustomers(deps, new Date(D0 + day * DAY + 3 * HOUR));

describe("pool recycle with nothing due", () => {
  it("skips the walk when no held clock is old enough, and not when a window ends at the cutoff", async () => {
    const co = await createCompany(ctx);
    const org = await orgIdOf(database, co.owner);
    const pool = { recycle_after_days: 5, warn_days_before: 5 };
    await db.execute(
      sql`update orgs set settings = ${JSON.stringify({ pool })}::jsonb where id = ${org}::uuid`,
    );
    // The only held customer: its clock started an hour before D0's midnight.
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into customers (org_id, user_id, company, status, created_at, last_contact_at)
          values (${org}::uuid, ${co.member.userId}::uuid, 'Late Co', 'contacted',
            ${new Date(D0 - 100 * DAY).toISOString()}::timestamptz,
            ${new Date(D0 - HOUR).toISOString()}::timestamptz)
          returning id`,
    );

    // The day before, its clock is after the cutoff: nothing read, not even the organisations.
    expect(await runOn(-1)).toEqual({ orgs: 0, warned: 0, warnings: 0, recycled: 0 });
    // D0: warned 5 days before its recycle, the warning window ending at the cutoff.
    expect(await runOn(0)).toMatchObject({ orgs: 1, warned: 1, warnings: 1, recycled: 0 });
    const [warning] = await queryRows<{ data: { recycle_on: string } }>(
      db,
      sql`select data from notifications
          where user_id = ${co.member.userId}::uuid and kind = 'pool_recycle_warning'`,
    );
    expect(warning!.data.recycle_on).toBe("2026-07-06");
    expect(await runOn(4)).toMatchObject({ orgs: 1, warned: 0, recycled: 0 });
    expect(await runOn(5)).toMatchObject({ orgs: 1, warned: 0, recycled: 1 });
    const [held] = await queryRows<{ user_id: string | null }>(
      db,
      sql`select user_id from customers where id = ${row!.id}::uuid`,
    );
    expect(held!.user_id).toBeNull();
    // Nobody holds a customer now: the next run stops at its first probe.
    expect(await runOn(6)).toEqual({ orgs: 0, warned: 0, warnings: 0, recycled: 0 });
  }, 60_000);
});
