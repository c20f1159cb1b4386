import { fillPlaceholders } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { Db } from "../../src/db/client";
import { listCustomers } from "../../src/modules/customers/queries";

// The customer list is rendered once per shape (which filters, which sort) and run with its
// values as parameters (issue #22, ADR 0104): a Db that records what it is asked to run.
function recorder() {
  const sent: { sql: string; name: string | undefined; params: unknown[] }[] = [];
  const db = {
    dialect: new PgDialect(),
    session: {
      prepareQuery: (built: { sql: string; params: unknown[] }, _f: unknown, name?: string) => ({
        execute: async (values: Record<string, unknown> = {}) => {
          sent.push({ sql: built.sql, name, params: fillPlaceholders(built.params, values) });
          return { rows: [] };
        },
      }),
    },
  } as unknown as Db;
  return { db, sent };
}

const ALICE = "00000000-0000-4000-8000-0000000000a1";
const BOB = "00000000-0000-4000-8000-0000000000b0";
const base = { now: "2026-01-01T00:00:00.000Z", sort: "-created_at", page: 1, size: 20 };

describe("the customer list's statement", () => {
  it("is one text per shape, every value a parameter", async () => {
    const { db, sent } = recorder();
    await listCustomers(db, { ...base, userId: ALICE, status: "won", q: "zenith", tag: "vip" });
    await listCustomers(db, {
      ...base,
      userId: BOB,
      status: "lost",
      q: "acme%",
      tag: "cold",
      page: 2,
      size: 5,
    });
    const [first, second] = sent;
    expect(second!.sql).toBe(first!.sql);
    expect(second!.name).toBe(first!.name);
    for (const value of [ALICE, BOB, "won", "lost", "zenith", "acme", "vip", "cold"]) {
      expect(first!.sql).not.toContain(value);
    }
    expect(first!.params).toEqual(expect.arrayContaining([ALICE, "won", "%zenith%", '["vip"]']));
    expect(first!.params).not.toContain(BOB);
    // The LIKE pattern escapes the term's own wildcards; page 2 of 5 starts at row 5.
    expect(second!.params).toEqual(expect.arrayContaining([BOB, "lost", "%acme\\%%", 5]));
  });

  it("is another text for another shape: filters, search kind, owner, sort", async () => {
    const { db, sent } = recorder();
    await listCustomers(db, { ...base, userId: ALICE });
    await listCustomers(db, { ...base, userId: ALICE, q: "zenith" });
    await listCustomers(db, { ...base, userId: ALICE, q: "ab" });
    await listCustomers(db, { ...base, userId: ALICE, owner: "pool" });
    await listCustomers(db, { ...base, userId: ALICE, owner: BOB });
    await listCustomers(db, { ...base, userId: ALICE, due: false });
    await listCustomers(db, { ...base, userId: ALICE, sort: "company" });
    expect(new Set(sent.map((s) => s.sql)).size).toBe(sent.length);
    expect(sent[1]!.sql).toContain(" like $");
    expect(sent[2]!.sql).toContain("strpos(");
    expect(sent[4]!.params).toContain(BOB);
  });
});
