import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { type Cte, defineCte } from "../../src/db/cte";
import { settledHold } from "../../src/modules/credits/queries/ai-holds";
import { signupCredits } from "../../src/modules/credits/queries/signup-grant";
import { registeredUser, upgradedGuest } from "../../src/modules/users/queries/sign-in";

// Typed CTE handles (ADR 0096): the name and columns of a CTE that one owner's fragment defines
// and another's statement reads. The type errors below are part of the test: `npm run
// typecheck` fails if a column a reader names is not declared, or a handle without the columns
// a fragment needs is handed to it.

const text = (query: SQL) => new PgDialect().sqlToQuery(query).sql;

describe("CTE handles", () => {
  const held = defineCte("held", ["user_id", "amount"]);

  it("define, name and read a CTE as identifiers, never as a parenthesised subquery", () => {
    expect(text(sql`with ${held.as(sql`select 1 as user_id, 2 as amount`)} select 1`)).toBe(
      'with "held" as (select 1 as user_id, 2 as amount) select 1',
    );
    expect(text(sql`select ${held.col("amount")} from ${held}`)).toBe(
      'select "held"."amount" from "held"',
    );
    expect(text(sql`select ${held.all}, ${held.exists} as any`)).toBe(
      'select "held".*, exists (select 1 from "held") as any',
    );
  });

  it("refuse a column the handle does not declare, and a name that is not one", () => {
    // @ts-expect-error: `balance` is not a column of `held`.
    expect(() => held.col("balance")).toThrow(/declares no column balance/);
    expect(() => defineCte("two words")).toThrow(/not a CTE name/);
  });

  it("fit a fragment that needs some of their columns, and only then", () => {
    const needsUser = (cte: Cte<string, "user_id">) => cte.col("user_id");
    expect(text(needsUser(held))).toBe('"held"."user_id"');
    const other = defineCte("other", ["id"]);
    // @ts-expect-error: `other` has no user_id.
    expect(() => needsUser(other)).toThrow(/declares no column user_id/);
  });

  it("are what the cross-owner statements name (a renamed one fails the type check there)", () => {
    expect([settledHold.name, registeredUser.name, upgradedGuest.name, signupCredits.name]).toEqual(
      ["settled", "new_user", "upgraded", "credits"],
    );
  });
});
