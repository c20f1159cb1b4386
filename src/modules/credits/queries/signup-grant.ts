import { type SQL, sql } from "drizzle-orm";
import { type Cte, defineCte } from "../../../db/cte";
import { creditLedger, creditLots, userCredits } from "../../../db/schema";
import { col, columnNames } from "../../../db/sql";

/** Registration grant (spec section 5): free-trial credits that go through the ledger. */
export const REGISTRATION_CREDITS = 30;

/** The CTE signupBalance defines: the balance rows it made or topped up (ADR 0096). */
export const signupCredits = defineCte("credits", ["user_id", "balance"]);

const grantLot = defineCte("lot", ["id", "user_id"]);
const grantLedger = defineCte("ledger");

/**
 * CTE `credits` of a sign-up statement: the balance row of each user in `users` (a CTE with
 * column `id`), returning user_id and balance. `credits` 0 opens an empty balance (a guest);
 * `topUp` adds to a balance the user already has (a guest becoming an account) instead of
 * failing on it.
 */
export function signupBalance(
  users: Cte<string, "id">,
  { credits, topUp, at }: { credits: number; topUp?: boolean; at?: SQL },
): SQL {
  const c = userCredits;
  const conflict = topUp
    ? sql` on conflict (${col(c.userId)}) do update
        set ${col(c.balance)} = ${c.balance} + excluded.balance, ${col(c.updatedAt)} = ${at ?? sql`now()`}`
    : sql``;
  return signupCredits.as(sql`
      insert into ${c} (${col(c.userId)}, ${col(c.balance)})
      select ${users.col("id")}, ${credits}::int from ${users}${conflict}
      returning ${col(c.userId)}, ${col(c.balance)}`);
}

/**
 * The registration grant inside a sign-up statement: CTEs `lot` (REGISTRATION_CREDITS that
 * never expire) and `ledger` (its row), for the balance rows of `credits` (user_id, balance:
 * the balance after the grant), e.g. from signupBalance.
 */
export function registrationGrant(credits: Cte<string, "user_id" | "balance">): SQL {
  const l = creditLots;
  const g = creditLedger;
  const userId = credits.col("user_id");
  return sql`${grantLot.as(sql`
      insert into ${l} (${columnNames([l.userId, l.kind, l.granted, l.remaining, l.sourceType, l.sourceId])})
      select ${userId}, 'registration_grant', ${REGISTRATION_CREDITS}::int,
             ${REGISTRATION_CREDITS}::int, 'user', ${userId}::text from ${credits}
      returning ${col(l.id)}, ${col(l.userId)}`)},
    ${grantLedger.as(sql`
      insert into ${g} (${columnNames([g.userId, g.delta, g.balanceAfter, g.kind, g.sourceType, g.sourceId, g.lots, g.note])})
      select ${userId}, ${REGISTRATION_CREDITS}::int, ${credits.col("balance")}, 'registration_grant', 'user',
             ${userId}::text,
             jsonb_build_array(jsonb_build_object('lot_id', ${grantLot.col("id")}, 'amount', ${REGISTRATION_CREDITS}::int)),
             'Free-trial credits on registration'
      from ${credits} join ${grantLot} on ${grantLot.col("user_id")} = ${userId}`)}`;
}
