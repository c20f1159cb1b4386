import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, expectStatus, registerUser, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";

// The unfiltered list reads its total from the count of customers every write keeps
// (user_usage), not by counting: it must still equal the rows the user holds after creates,
// deletes, bulk inserts and a failed insert, and a filtered list still counts its matches.

const { app, deps } = await createTestContext();

/** Typed by the OpenAPI document (ADR 0095). */
async function list(token: string, query: { q?: string; page?: number } = {}) {
  const res = await typed(app).get("/api/v1/customers", { token, query: { size: 5, ...query } });
  expectStatus(res, 200);
  return res.body;
}

async function held(userId: string): Promise<number> {
  const result = (await deps.db.execute(
    sql`select count(*)::int as n from customers where user_id = ${userId}`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

describe("customer list total", () => {
  it("equals the customers held through creates, deletes and bulk inserts", async () => {
    const seller = await registerUser(app);
    const auth = { token: seller.accessToken, csrf: seller.csrfToken, ip: seller.ip };
    expect((await list(seller.accessToken)).total).toBe(0);

    const ids: string[] = [];
    for (const company of ["Alpha Trading", "Beta Imports", "Gamma Foods"]) {
      const res = await typed(app).post("/api/v1/customers", { ...auth, json: { company } });
      expectStatus(res, 201);
      ids.push(res.body.id);
    }
    expect((await list(seller.accessToken)).total).toBe(3);

    const removed = await call(app, `/api/v1/customers/${ids[1]}`, { ...auth, method: "DELETE" });
    expect([200, 204]).toContain(removed.status);
    await deps.db.execute(
      sql`insert into customers (user_id, company) select ${seller.userId}::uuid, 'Bulk ' || i
          from generate_series(1, 12) as i`,
    );
    // A write that fails leaves the count as it was: a repeated id aborts the whole statement.
    const id = crypto.randomUUID();
    await expect(
      deps.db.execute(
        sql`insert into customers (id, user_id, company) values
            (${id}::uuid, ${seller.userId}::uuid, 'One'), (${id}::uuid, ${seller.userId}::uuid, 'Two')`,
      ),
    ).rejects.toThrow();

    const page = await list(seller.accessToken);
    expect(page.total).toBe(await held(seller.userId));
    expect(page.total).toBe(14);
    // Another user's customers are not in it.
    const other = await registerUser(app);
    expect((await list(other.accessToken)).total).toBe(0);
    // Filtered, the total is the matches.
    expect((await list(seller.accessToken, { q: "bulk" })).total).toBe(12);
    // Past the end: no rows, the same total.
    const past = await list(seller.accessToken, { page: 9 });
    expect(past.items).toEqual([]);
    expect(past.total).toBe(14);
  });
});
