import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { CRON_SCHEDULES, tasksForCron } from "../../src/jobs/schedules";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { recyclePoolCustomers } from "../../src/modules/customers/pool/recycle";
import { call, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// Issue #22 item 4: the overnight pool recycle (ADR 0099). Held customers with no follow-up for
// pool.recycle_after_days go back to the pool; their holder is warned warn_days_before days
// first, once, in one notification per day; exempt statuses stay; a follow-up restarts the clock.

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The first run's day; its UTC midnight is the cutoff every window is counted from. */
const D0 = Date.parse("2026-07-01T00:00:00.000Z");
let now = new Date(D0 + 3 * HOUR + 45 * 60_000);
const ctx = await createTestContext({ runtime: { clock: { now: () => now } } });
const { app, deps, database } = ctx;
const db = database.db;

const days = (n: number) => n * DAY;
const at = (ms: number) => new Date(ms).toISOString();

async function setPool(owner: Session, pool: Record<string, unknown>) {
  const org = await orgIdOf(database, owner);
  await db.execute(
    sql`update orgs set settings = ${JSON.stringify({ pool })}::jsonb where id = ${org}::uuid`,
  );
}

/** A customer held by `holder` whose clock (last contact) started at `since`. */
async function heldSince(
  holder: Session,
  since: number,
  fields: { status?: string; company?: string; contacted?: boolean } = {},
) {
  const org = await orgIdOf(database, holder);
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into customers (org_id, user_id, company, status, created_at, last_contact_at)
        values (${org}::uuid, ${holder.userId}::uuid, ${fields.company ?? "Quiet Co"},
          ${fields.status ?? "contacted"}, ${at(since - days(400))}::timestamptz,
          ${fields.contacted === false ? null : at(since)}::timestamptz)
        returning id`,
  );
  return row!.id;
}

async function holderOf(id: string) {
  const [row] = await queryRows<{ user_id: string | null }>(
    db,
    sql`select user_id from customers where id = ${id}::uuid`,
  );
  return row!.user_id;
}

async function notificationsOf(user: Session, kind: string) {
  return queryRows<{
    title: string;
    body: string;
    data: Record<string, unknown>;
    dedupe_key: string;
  }>(
    db,
    sql`select title, body, data, dedupe_key from notifications
        where user_id = ${user.userId}::uuid and kind = ${kind} order by created_at, id`,
  );
}

const runOn = (day: number) => recyclePoolCustomers(deps, new Date(D0 + days(day) + 3 * HOUR));

describe("pool recycle", () => {
  it("warns once W days before, recycles on the day, leaves exempt statuses and other orgs alone", async () => {
    const co = await createCompany(ctx);
    await setPool(co.owner, { recycle_after_days: 30, warn_days_before: 3 });
    // Crossed into the warning window (27 days) during the day before D0: warned on D0,
    // recycled on D0 + 3.
    const soon = await heldSince(co.member, D0 - days(27) - HOUR, { company: "Soon Ltd" });
    const soon2 = await heldSince(co.member, D0 - days(28) + HOUR, { company: "Soon Two" });
    // Already past 30 days when the rule came: recycled on the first run, no warning.
    const stale = await heldSince(co.colleague, D0 - days(45), { company: "Stale" });
    // Never contacted: its creation starts the clock.
    const never = await heldSince(co.colleague, D0 - days(31), { contacted: false });
    await db.execute(
      sql`update customers set created_at = ${at(D0 - days(31))}::timestamptz where id = ${never}::uuid`,
    );
    const won = await heldSince(co.member, D0 - days(200), { status: "won" });
    const fresh = await heldSince(co.member, D0 - days(5));
    // Another organisation without the rule.
    const elsewhere = await heldSince(co.outsider, D0 - days(300));

    const first = await runOn(0);
    expect(first).toMatchObject({ warned: 2, recycled: 2 });
    expect(await holderOf(stale)).toBeNull();
    expect(await holderOf(never)).toBeNull();
    for (const id of [soon, soon2, won, fresh]) expect(await holderOf(id)).toBe(co.member.userId);
    expect(await holderOf(elsewhere)).toBe(co.outsider.userId);

    const warnings = await notificationsOf(co.member, "pool_recycle_warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      title: "2 customers return to the pool on 2026-07-04",
      dedupe_key: "pool_recycle_warning:2026-07-01",
      data: { count: 2, recycle_on: "2026-07-04", day: "2026-07-01" },
    });
    expect(warnings[0]!.body).toContain("Soon Ltd");
    expect(await notificationsOf(co.colleague, "pool_recycle_warning")).toHaveLength(0);
    const gone = await notificationsOf(co.colleague, "pool_recycled");
    expect(gone).toHaveLength(1);
    expect(gone[0]).toMatchObject({
      title: "2 customers returned to the pool",
      data: { count: 2, day: "2026-07-01", recycle_after_days: 30 },
    });
    const [event] = await queryRows<Record<string, unknown>>(
      db,
      sql`select from_user_id, to_user_id, action, reason, actor_id
          from customer_ownership_events where customer_id = ${stale}::uuid and action = 'recycle'`,
    );
    expect(event).toEqual({
      from_user_id: co.colleague.userId,
      to_user_id: null,
      action: "recycle",
      reason: "pool.recycle_after_days (30)",
      actor_id: null,
    });

    // A rerun the same day, hours later: nothing more, no second notification.
    now = new Date(D0 + 20 * HOUR);
    expect(await recyclePoolCustomers(deps, now)).toMatchObject({
      warned: 2,
      warnings: 0,
      recycled: 0,
    });
    expect(await notificationsOf(co.member, "pool_recycle_warning")).toHaveLength(1);
    expect(await notificationsOf(co.colleague, "pool_recycled")).toHaveLength(1);

    // The next two days: no warning again for the same customers, nothing recycled.
    expect(await runOn(1)).toMatchObject({ warned: 0, recycled: 0 });
    expect(await runOn(2)).toMatchObject({ warned: 0, recycled: 0 });
    expect(await notificationsOf(co.member, "pool_recycle_warning")).toHaveLength(1);

    // Day 3: both go, with their recycled notification; won stays held.
    expect(await runOn(3)).toMatchObject({ recycled: 2 });
    expect(await holderOf(soon)).toBeNull();
    expect(await holderOf(soon2)).toBeNull();
    expect(await holderOf(won)).toBe(co.member.userId);
    expect(await holderOf(fresh)).toBe(co.member.userId);
    const recycled = await notificationsOf(co.member, "pool_recycled");
    expect(recycled).toHaveLength(1);
    expect(recycled[0]!.data).toMatchObject({ count: 2, day: "2026-07-04" });
    expect(await holderOf(elsewhere)).toBe(co.outsider.userId);
  });

  it("a follow-up or a claim restarts the clock; exempt_statuses replaces the default", async () => {
    now = new Date(D0 + 3 * HOUR);
    const co = await createCompany(ctx);
    await setPool(co.owner, {
      recycle_after_days: 10,
      warn_days_before: 2,
      exempt_statuses: ["negotiating"],
    });
    const followed = await heldSince(co.member, D0 - days(20), { company: "Followed" });
    const ignored = await heldSince(co.member, D0 - days(20), { company: "Ignored" });
    const negotiating = await heldSince(co.member, D0 - days(20), { status: "negotiating" });
    const won = await heldSince(co.member, D0 - days(20), { status: "won" });
    const res = await call(app, `/api/v1/customers/${followed}/followups`, {
      token: co.member.accessToken,
      json: { channel: "email", note: "Sent the catalogue" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // A claimed pool customer untouched for a year: its new holder's clock starts at the claim.
    // Inserted held (the plan's customer count), then put in the pool directly.
    const [pooled] = await queryRows<{ id: string }>(
      db,
      sql`insert into customers (org_id, user_id, company, created_at, last_contact_at)
          values (${await orgIdOf(database, co.owner)}::uuid, ${co.owner.userId}::uuid, 'Old pool',
            ${at(D0 - days(400))}::timestamptz, ${at(D0 - days(365))}::timestamptz)
          returning id`,
    );
    await db.execute(sql`update customers set user_id = null where id = ${pooled!.id}::uuid`);
    const claimed = await call(app, `/api/v1/customers/${pooled!.id}/claim`, {
      token: co.colleague.accessToken,
      method: "POST",
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);

    const [outcome] = await runScheduledTasks(deps, ["poolRecycle"]);
    expect(outcome).toMatchObject({ task: "poolRecycle", ok: true });
    expect(await holderOf(ignored)).toBeNull();
    expect(await holderOf(followed)).toBe(co.member.userId);
    expect(await holderOf(negotiating)).toBe(co.member.userId);
    // won is not exempt when exempt_statuses leaves it out.
    expect(await holderOf(won)).toBeNull();
    expect(await holderOf(pooled!.id)).toBe(co.colleague.userId);

    // The clocks of the followed-up and the claimed one started at D0 03:00: they enter the
    // warning window (8 days) on D0 + 8 and are warned on the run of D0 + 9, recycled on D0 + 11.
    expect(await runOn(8)).toMatchObject({ warned: 0 });
    expect(await runOn(9)).toMatchObject({ warned: 2 });
    const warned = await notificationsOf(co.member, "pool_recycle_warning");
    expect(warned.map((w) => w.data.recycle_on)).toEqual(["2026-07-12"]);
    expect(await notificationsOf(co.colleague, "pool_recycle_warning")).toHaveLength(1);
    expect(await runOn(10)).toMatchObject({ recycled: 0 });
    expect(await runOn(11)).toMatchObject({ recycled: 2 });
    expect(await holderOf(followed)).toBeNull();
    expect(await holderOf(pooled!.id)).toBeNull();
  });

  it("runs nightly with purgeExpired, on the cron expressions wrangler.toml already lists", () => {
    expect(tasksForCron(CRON_SCHEDULES.poolRecycle)).toEqual(["purgeExpired", "poolRecycle"]);
  });

  it("walks hundreds of customers in batches, one notification per holder and day", async () => {
    now = new Date(D0 + 3 * HOUR);
    const co = await createCompany(ctx);
    await setPool(co.owner, { recycle_after_days: 30 });
    const org = await orgIdOf(database, co.owner);
    await db.execute(
      sql`insert into customers (org_id, user_id, company, created_at, last_contact_at)
          select ${org}::uuid, case when g % 2 = 0 then ${co.member.userId}::uuid
              else ${co.colleague.userId}::uuid end,
            'Bulk ' || g, ${at(D0 - days(100))}::timestamptz,
            ${at(D0 - days(40))}::timestamptz + make_interval(secs => g)
          from generate_series(1, 900) g`,
    );
    const result = await runOn(0);
    expect(result.recycled).toBe(900);
    const [left] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from customers where org_id = ${org}::uuid and user_id is not null`,
    );
    expect(left!.n).toBe(0);
    const member = await notificationsOf(co.member, "pool_recycled");
    expect(member).toHaveLength(1);
    expect(member[0]!.data).toMatchObject({ count: 450 });
    expect((member[0]!.data.customers as unknown[]).length).toBe(5);
    const [events] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from customer_ownership_events
          where org_id = ${org}::uuid and action = 'recycle'`,
    );
    expect(events!.n).toBe(900);
  });
});
