import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, expectStatus, randomEmail, registerUser, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

// GET /api/v1/admin/stats (API.md: users, revenue, credits, AI calls by day). Each test file has
// its own database, so the figures below are exactly what this file wrote.
const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app, deps } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });
const STATS = "/api/v1/admin/stats" as const;
const today = () => new Date().toISOString().slice(0, 10);
const stats = (query = "") => call(app, `${STATS}${query}`, { token: admin.accessToken });
/** The success path, typed by the OpenAPI document (ADR 0095); `stats` stays for the 422s. */
const statsOk = async (query: { start_date?: string; end_date?: string } = {}) => {
  const answer = await typed(app).get(STATS, { token: admin.accessToken, query });
  expectStatus(answer, 200);
  return answer;
};

describe("admin stats", () => {
  it("counts users, revenue net of refunds, credits and AI calls per UTC day", async () => {
    const seller = await registerUser(app);
    // A paid order of 19.00 USD with 4.00 refunded, a pending one (not revenue), and 3 AI calls.
    await queryRows(
      deps.db,
      sql`insert into payment_transactions (order_no, user_id, kind, subject, pay_type, provider,
            amount, currency, status, refunded_amount, expires_at)
          values ('TA-STATS-1', ${seller.userId}, 'credits', 'Credits', 'alipay', 'sandbox', 1900,
                  'USD', 'partially_refunded', 400, now() + interval '1 hour'),
                 ('TA-STATS-2', ${seller.userId}, 'credits', 'Credits', 'alipay', 'sandbox', 5000,
                  'USD', 'pending', 0, now() + interval '1 hour')`,
    );
    await queryRows(
      deps.db,
      sql`select credit_charge(${seller.userId}::uuid, 2, 'consumption', 'translate', null,
            null::uuid, null, now())`,
    );
    await queryRows(
      deps.db,
      sql`insert into usage_logs (user_id, event) values (${seller.userId}, 'translate'),
            (${seller.userId}, 'translate'), (${seller.userId}, 'chat'), (${seller.userId}, 'login')`,
    );

    const res = await statsOk();
    expect(res.status).toBe(200);
    const { totals, by_day } = res.body;
    expect(by_day).toHaveLength(30);
    expect(by_day.at(-1)!.date).toBe(today());
    expect(totals).toMatchObject({
      users: 2,
      guests: 0,
      new_users: 2,
      revenue: { USD: 1500 },
      credits_granted: 60, // 30 trial credits for each registration
      credits_consumed: 2,
      credits_expired: 0,
      credits_outstanding: 58,
      ai_calls: 3,
      ai_calls_by_operation: { translate: 2, chat: 1 },
    });
    expect(by_day.at(-1)).toEqual({
      date: today(),
      new_users: 2,
      revenue: { USD: 1500 },
      credits_granted: 60,
      credits_consumed: 2,
      ai_calls: 3,
    });
    expect(by_day[0]).toMatchObject({ new_users: 0, revenue: {}, ai_calls: 0 });
  });

  it("takes a date range, and rejects a reversed, too long or malformed one", async () => {
    const range = await statsOk({ start_date: "2026-01-01", end_date: "2026-01-03" });
    expect(range.status).toBe(200);
    expect(range.body.by_day.map((d) => d.date)).toEqual([
      "2026-01-01",
      "2026-01-02",
      "2026-01-03",
    ]);
    expect(range.body.totals).toMatchObject({ new_users: 0, ai_calls: 0, users: 2 });
    for (const query of [
      "?start_date=2026-02-02&end_date=2026-02-01",
      "?start_date=2024-01-01&end_date=2026-01-01",
      "?start_date=2026-02-30",
      "?end_date=yesterday",
    ]) {
      expect((await stats(query)).status, query).toBe(422);
    }
  });

  it("is for admins only", async () => {
    const user = await registerUser(app);
    expect((await call(app, STATS, { token: user.accessToken })).status).toBe(403);
    expect((await call(app, STATS)).status).toBe(401);
  });
});
