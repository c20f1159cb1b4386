import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app } = ctx;

const create = (user: Session) =>
  call(app, "/api/v1/quotations", {
    token: user.accessToken,
    json: { currency: "USD", items: [{ name: "Mug", quantity: 1, unit_price: 100 }] },
  });

/** The user's quotation numbers of `prefix`'s day, as stored. */
async function numbersOf(user: Session, prefix: string): Promise<string[]> {
  const rows = await queryRows<{ quote_no: string }>(
    ctx.deps.db,
    sql`select quote_no from quotations
        where user_id = ${user.userId} and quote_no like ${`${prefix}-%`}`,
  );
  return rows.map((r) => r.quote_no);
}

describe("quotation numbers", () => {
  it("go past 999 in a day: the 1,000th is -1000, then -1001, never a collision", async () => {
    const user = await registerUser(app);
    const first = await create(user);
    expect(first.status).toBe(201);
    expect(first.body.quote_no).toMatch(/^Q-\d{8}-001$/);
    const prefix = (first.body.quote_no as string).slice(0, -4);
    // The rest of the day's first 999, as the numbering wrote them (-002 ... -999).
    await queryRows(
      ctx.deps.db,
      sql`insert into quotations (user_id, quote_no, currency)
          select ${user.userId}, ${prefix} || '-' || lpad(n::text, 3, '0'), 'USD'
          from generate_series(2, 999) n`,
    );

    // Before: lpad(1000, 3) is '100', taken, and every create of the day answered 500.
    const thousandth = await create(user);
    expect(thousandth.status, JSON.stringify(thousandth.body)).toBe(201);
    expect(thousandth.body.quote_no).toBe(`${prefix}-1000`);
    const next = await create(user);
    expect(next.status).toBe(201);
    expect(next.body.quote_no).toBe(`${prefix}-1001`);

    // Creates racing past 999 still end distinct and gapless (the loser of a collision retries).
    const racing = await Promise.all([create(user), create(user), create(user)]);
    expect(racing.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(racing.map((r) => r.body.quote_no).sort()).toEqual(
      [`${prefix}-1002`, `${prefix}-1003`, `${prefix}-1004`].sort(),
    );

    const numbers = await numbersOf(user, prefix);
    expect(numbers).toHaveLength(1004);
    expect(new Set(numbers).size).toBe(1004);
    // Read as numbers they are 1..1004: ordering by the number keeps the order of creation.
    const values = numbers.map((n) => Number(n.slice(prefix.length + 1))).sort((a, b) => a - b);
    expect(values).toEqual(Array.from({ length: 1004 }, (_, i) => i + 1));
  });

  it("are counted per seller: another seller's thousand do not move this one's count", async () => {
    const busy = await registerUser(app);
    const quiet = await registerUser(app);
    const first = await create(busy);
    const prefix = (first.body.quote_no as string).slice(0, -4);
    await queryRows(
      ctx.deps.db,
      sql`insert into quotations (user_id, quote_no, currency)
          select ${busy.userId}, ${prefix} || '-' || n::text, 'USD'
          from generate_series(2, 1500) n`,
    );
    expect((await create(busy)).body.quote_no).toBe(`${prefix}-1501`);
    expect((await create(quiet)).body.quote_no).toBe(`${prefix}-001`);
  });
});
