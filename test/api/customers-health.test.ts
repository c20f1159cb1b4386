import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CRON_SCHEDULES, tasksForCron } from "../../src/jobs/schedules";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { signAccessToken } from "../../src/modules/auth/tokens";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

/** The whole file runs on a clock it controls, so every figure below is exact. */
const START = new Date("2026-06-01T12:00:00.000Z");
let now = START;
const clock = { now: () => now };
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
const BASE = "/api/v1/customers";
const DAY = 86_400_000;
const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
const ahead = (days: number) => new Date(now.getTime() + days * DAY).toISOString();

/** A token valid at the current test time. */
const tokenFor = (user: Session) =>
  signAccessToken(deps, {
    userId: user.userId,
    sessionId: crypto.randomUUID(),
    role: "user",
    isGuest: false,
  });
const api = async (user: Session, path: string, options: Parameters<typeof call>[2] = {}) =>
  call(app, path, { token: await tokenFor(user), ...options });

/** Creates a customer through the API, then sets fields the API does not write (dates). */
async function craft(
  user: Session,
  body: Record<string, unknown>,
  dates: { created_at?: string; last_contact_at?: string | null; status?: string } = {},
) {
  const res = await api(user, BASE, { json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id: string = res.body.id;
  await deps.db.execute(
    sql`update customers set
          created_at = coalesce(${dates.created_at ?? null}::timestamptz, created_at),
          last_contact_at = ${dates.last_contact_at ?? null}::timestamptz,
          status = coalesce(${dates.status ?? null}, status)
        where id = ${id}`,
  );
  return id;
}

describe("customer health", () => {
  it("scores crafted customers by recency, punctuality, status and value", async () => {
    now = START;
    const user = await registerUser(app);
    const a = await craft(
      user,
      { company: "A", status: "quoted", estimated_value: 1000, next_followup_at: ahead(1) },
      { last_contact_at: ago(3) },
    );
    const b = await craft(
      user,
      { company: "B", next_followup_at: ago(3.5) },
      { created_at: ago(21), status: "contacted" },
    );
    const c = await craft(
      user,
      { company: "C", status: "negotiating", estimated_value: 500, next_followup_at: ago(4.2) },
      { last_contact_at: ago(40) },
    );
    const d = await craft(user, { company: "D", status: "lost" }, { last_contact_at: ago(60) });
    const e = await craft(
      user,
      { company: "E", status: "won", next_followup_at: ahead(29) },
      { last_contact_at: ago(1) },
    );
    const f = await craft(user, { company: "F" });

    const health = async (id: string) => {
      const res = await api(user, `${BASE}/${id}/health`);
      expect(res.status).toBe(200);
      return res.body;
    };
    // A: 40 x 1 + 25 x 1 + 25 x 0.9 + 10 x 1 (top of the user's USD values) = 97.5 -> 98.
    expect(await health(a)).toMatchObject({ customer_id: a, score: 98, level: "healthy" });
    // B: never contacted, added 21 days ago: recency (28 - 21) / 21; overdue 3.5 of 7 days.
    const hb = await health(b);
    expect(hb).toMatchObject({ customer_id: b, score: 41, level: "at_risk" });
    expect(hb.factors).toEqual([
      expect.objectContaining({ name: "recency", weight: 40, value: 0.333 }),
      expect.objectContaining({ name: "punctuality", weight: 25, value: 0.5 }),
      expect.objectContaining({ name: "status", weight: 25, value: 0.6 }),
      expect.objectContaining({ name: "value", weight: 10, value: 0 }),
    ]);
    expect(hb.factors[0].note).toContain("Never contacted");
    expect(hb.factors[1].note).toContain("overdue by 3 day");
    // C: 0 + 25 x 0.4 + 25 x 0.8 + 10 x 0.5 (cume_dist of 500 among 500, 1000) = 35.
    const hc = await health(c);
    expect(hc).toMatchObject({ score: 35, level: "at_risk" });
    expect(hc.factors[3]).toMatchObject({ name: "value", value: 0.5 });
    // D: 0 + 25 x 0.5 (nothing scheduled) + 0 + 0 = 12.5 -> 13.
    expect(await health(d)).toMatchObject({ score: 13, level: "critical" });
    // E: 40 + 25 + 25 + 0 = 90.
    expect(await health(e)).toMatchObject({ score: 90, level: "healthy" });
    // F: brand new, nothing scheduled: 40 + 12.5 + 12.5 = 65.
    expect(await health(f)).toMatchObject({ score: 65, level: "watch" });

    const scores = await api(user, `${BASE}/health-scores`);
    expect(scores.status).toBe(200);
    expect(scores.body).toMatchObject({ total: 6, page: 1, size: 20 });
    expect(scores.body.items.map((s: { customer_id: string }) => s.customer_id)).toEqual([
      d,
      c,
      b,
      f,
      e,
      a,
    ]);
    expect(scores.body.items[0]).toMatchObject({ company: "D", status: "lost", score: 13 });
    const desc = await api(user, `${BASE}/health-scores?sort=-score&size=2`);
    expect(desc.body.items.map((s: { score: number }) => s.score)).toEqual([98, 90]);
    expect(desc.body.total).toBe(6);
    const atRisk = await api(user, `${BASE}/health-scores?level=at_risk`);
    expect(atRisk.body.items.map((s: { customer_id: string }) => s.customer_id)).toEqual([c, b]);
    expect((await api(user, `${BASE}/health-scores?page=9`)).body).toMatchObject({
      items: [],
      total: 6,
    });

    const overview = await api(user, `${BASE}/health-overview`);
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({
      total: 6,
      average: 57,
      counts: { healthy: 2, watch: 1, at_risk: 2, critical: 1 },
    });
    // Lost customers are closed: the most-at-risk list leaves them out.
    expect(overview.body.most_at_risk.map((s: { customer_id: string }) => s.customer_id)).toEqual([
      c,
      b,
      f,
      e,
      a,
    ]);

    const empty = await registerUser(app);
    expect((await api(empty, `${BASE}/health-overview`)).body).toEqual({
      total: 0,
      average: null,
      counts: { healthy: 0, watch: 0, at_risk: 0, critical: 0 },
      most_at_risk: [],
    });
  });
});

describe("silence detection", () => {
  interface Digest {
    kind: string;
    title: string;
    data: {
      silent: number;
      followups_due: number;
      most_urgent: { customer_id: string; reason: string; overdue_days: number; since: string }[];
    };
  }
  async function notifications(user: Session) {
    const res = await api(user, "/api/v1/notifications?size=100");
    expect(res.status).toBe(200);
    return res.body.items as Digest[];
  }
  const urgent = (n: Digest, names: Map<string, string>) =>
    n.data.most_urgent.map((u) => `${u.reason}:${names.get(u.customer_id)}`);

  it("lists silent customers and sums them up in one digest per user and day", async () => {
    now = START;
    await deps.db.execute(
      sql`insert into system_config (key, value) values ('customers.silence_days', '10'::jsonb)
          on conflict (key) do update set value = excluded.value`,
    );
    const user = await registerUser(app);
    const other = await registerUser(app);
    const s1 = await craft(
      user,
      { company: "S1", status: "contacted" },
      { last_contact_at: ago(11) },
    );
    const s2 = await craft(
      user,
      { company: "S2", status: "contacted" },
      { last_contact_at: ago(5) },
    );
    const s3 = await craft(user, { company: "S3" }, { created_at: ago(12) });
    const s4 = await craft(user, { company: "S4" }, { status: "won", last_contact_at: ago(50) });
    const s5 = await craft(user, { company: "S5" }, { status: "lost", last_contact_at: ago(50) });
    const s6 = await craft(
      user,
      {
        company: "S6",
        status: "quoted",
        next_followup_at: new Date(now.getTime() - 3_600_000).toISOString(),
      },
      { last_contact_at: ago(1) },
    );
    const names = new Map([
      [s1, "S1"],
      [s2, "S2"],
      [s3, "S3"],
      [s4, "S4"],
      [s5, "S5"],
      [s6, "S6"],
    ]);
    const otherSilent = await craft(other, { company: "O1" }, { created_at: ago(30) });

    const silent = await api(user, `${BASE}/silent`);
    expect(silent.status).toBe(200);
    expect(silent.body).toMatchObject({ total: 2, page: 1, silence_days: 10 });
    expect(silent.body.items.map((x: { id: string }) => x.id)).toEqual([s3, s1]);
    expect(silent.body.items[0]).toMatchObject({ silent_since: ago(12), silent_days: 12 });
    expect(silent.body.items[1]).toMatchObject({
      company: "S1",
      last_contact_at: ago(11),
      silent_days: 11,
    });
    expect((await api(user, `${BASE}/silent?size=1`)).body.items).toHaveLength(1);
    expect((await api(user, `${BASE}/silent?page=3&size=1`)).body).toMatchObject({
      items: [],
      total: 2,
    });

    // The task, through the same entry the Node scheduler and the Worker cron use: one digest
    // per user and day (ADR 0091), counts and the most overdue first.
    expect(tasksForCron(CRON_SCHEDULES.customerReminders)).toEqual(["customerReminders"]);
    const first = await runScheduledTasks(deps, ["customerReminders"]);
    expect(first[0]).toMatchObject({ task: "customerReminders", ok: true });
    expect(first[0]!.result).toMatchObject({ silent: expect.any(Number) });
    expect((first[0]!.result as { digests: number }).digests).toBeGreaterThanOrEqual(2);
    const afterFirst = await notifications(user);
    expect(afterFirst).toHaveLength(1);
    expect(afterFirst[0]).toMatchObject({
      kind: "reminder_digest",
      title: "1 follow-up due, 2 customers gone quiet",
      data: { silent: 2, followups_due: 1 },
    });
    // S3 is 2 days past the 10-day limit, S1 1 day, S6's follow-up 1 hour overdue.
    expect(urgent(afterFirst[0]!, names)).toEqual(["silent:S3", "silent:S1", "followup_due:S6"]);
    expect(afterFirst[0]!.data.most_urgent[0]).toMatchObject({ overdue_days: 2, since: ago(12) });

    // A second run at the same time writes nothing new, for anyone.
    const second = await runScheduledTasks(deps, ["customerReminders"]);
    expect(second[0]!.result).toMatchObject({ digests: 0 });
    expect(await notifications(user)).toHaveLength(1);
    const otherNotes = await notifications(other);
    expect(otherNotes).toHaveLength(1);
    expect(otherNotes[0]!.data.most_urgent.map((u) => u.customer_id)).toEqual([otherSilent]);

    // A new contact ends S1's silence; eleven days later S1 is silent again, its cadence's
    // follow-up is due, and the day's digest is a new one.
    const contact = await api(user, `${BASE}/${s1}/followups`, { json: { channel: "email" } });
    expect(contact.status).toBe(201);
    now = new Date(START.getTime() + 11 * DAY);
    await runScheduledTasks(deps, ["customerReminders"]);
    await runScheduledTasks(deps, ["customerReminders"]);
    const later = await notifications(user);
    expect(later).toHaveLength(2);
    expect(later[0]!.data).toMatchObject({ silent: 4, followups_due: 2 });
    // Six are due; the five most overdue are named (S1's fresh silence, a day old, is not).
    expect(urgent(later[0]!, names).sort()).toEqual(
      ["followup_due:S1", "followup_due:S6", "silent:S2", "silent:S3", "silent:S6"].sort(),
    );
  });
});
