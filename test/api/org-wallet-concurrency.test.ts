import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { grantCredits } from "../../src/modules/credits/service";
import { appWithBillableRoute } from "../support/billable";
import { call, type Session } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// The member monthly limit under concurrent charges (issue #22 item 5, ADR 0098): credit_charge
// locks the member's org_members row before it reads the month's use, so no two charges both
// pass the limit. Real PostgreSQL only: PGlite runs one statement at a time.

const ctx = await createTestContext();
const { deps, database } = ctx;
const billable = appWithBillableRoute(deps);
const charge = (who: Session) =>
  call(billable, "/test/billable", { json: {}, token: who.accessToken });

describe.runIf(onPostgres)("member limit under concurrent charges", () => {
  it("lets exactly k of 20 concurrent charges through, never past the limit", async () => {
    const { owner, member, colleague } = await createCompany(ctx);
    const orgId = await orgIdOf(database, owner);
    await grantCredits(deps, {
      userId: owner.userId,
      amount: 1000,
      kind: "purchase",
      sourceType: "order",
      sourceId: `concurrency-${orgId}`,
    });
    const cost = 2;
    const k = 7;
    await database.db.execute(
      sql`update org_members set monthly_credit_limit = ${k * cost}
          where user_id = ${member.userId}::uuid`,
    );
    // A colleague without a limit charges the same wallet at the same time.
    const [mine, theirs] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => charge(member))),
      Promise.all(Array.from({ length: 5 }, () => charge(colleague))),
    ]);
    expect(mine.filter((r) => r.status === 200)).toHaveLength(k);
    const refused = mine.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(20 - k);
    for (const r of refused) {
      expect(r.status).toBe(402);
      expect(r.body).toMatchObject({ code: "member_limit_reached", limit: k * cost });
      expect(r.body.used).toBeLessThanOrEqual(k * cost);
    }
    expect(theirs.every((r) => r.status === 200)).toBe(true);

    const [state] = await queryRows<{
      used: number;
      balance: number;
      ledger: number;
      lots: number;
    }>(
      deps.db,
      sql`select member_credits_used_month(${member.userId}::uuid, ${orgId}::uuid, now()) as used,
            (select balance from org_credits where org_id = ${orgId}::uuid) as balance,
            (select coalesce(sum(delta), 0)::int from credit_ledger where org_id = ${orgId}::uuid) as ledger,
            (select coalesce(sum(remaining), 0)::int from credit_lots where org_id = ${orgId}::uuid) as lots`,
    );
    expect(state!.used).toBe(k * cost);
    const expected = 30 + 1000 - k * cost - 5 * cost;
    expect(state).toEqual({ used: k * cost, balance: expected, ledger: expected, lots: expected });
    // Every charge saw the one before it (the wallet lock serialised them): no two rows of the
    // wallet end on the same balance.
    const rows = await queryRows<{ balance_after: number }>(
      deps.db,
      sql`select balance_after from credit_ledger
          where org_id = ${orgId}::uuid and kind = 'consumption'`,
    );
    expect(rows).toHaveLength(k + 5);
    expect(new Set(rows.map((r) => r.balance_after)).size).toBe(k + 5);
  });
});
