import { type SQL, sql } from "drizzle-orm";
import { creditLedger, creditLots, userCredits } from "../../../db/schema";
import { col, columnNames } from "../../../db/sql";

/** Registration grant (spec section 5): free-trial credits that go through the ledger. */
export const REGISTRATION_CREDITS = 30;

/**
 * CTE `credits` of a sign-up statement: the balance row of each user in `users` (a CTE with
 * column `id`), returning user_id and balance. `credits` 0 opens an empty balance (a guest);
 * `topUp` adds to a balance the user already has (a guest becoming an account) instead of
 * failing on it.
 */
export function signupBalance(
  users: SQL,
  { credits, topUp, at }: { credits: number; topUp?: boolean; at?: SQL },
): SQL {
  const c = userCredits;
  const conflict = topUp
    ? sql` on conflict (${col(c.userId)}) do update
        set ${col(c.balance)} = ${c.balance} + excluded.balance, ${col(c.updatedAt)} = ${at ?? sql`now()`}`
    : sql``;
  return sql`credits as (
      insert into ${c} (${col(c.userId)}, ${col(c.balance)})
      select id, ${credits}::int from ${users}${conflict}
      returning ${col(c.userId)}, ${col(c.balance)})`;
}

/**
 * The registration grant inside a sign-up statement: CTEs `lot` (REGISTRATION_CREDITS that
 * never expire) and `ledger` (its row), for the balance rows of `credits` (user_id, balance:
 * the balance after the grant), e.g. from signupBalance.
 */
export function registrationGrant(credits: SQL): SQL {
  const l = creditLots;
  const g = creditLedger;
  return sql`lot as (
      insert into ${l} (${columnNames([l.userId, l.kind, l.granted, l.remaining, l.sourceType, l.sourceId])})
      select user_id, 'registration_grant', ${REGISTRATION_CREDITS}::int,
             ${REGISTRATION_CREDITS}::int, 'user', user_id::text from ${credits}
      returning ${col(l.id)}, ${col(l.userId)}),
    ledger as (
      insert into ${g} (${columnNames([g.userId, g.delta, g.balanceAfter, g.kind, g.sourceType, g.sourceId, g.lots, g.note])})
      select c.user_id, ${REGISTRATION_CREDITS}::int, c.balance, 'registration_grant', 'user',
             c.user_id::text,
             jsonb_build_array(jsonb_build_object('lot_id', lot.id, 'amount', ${REGISTRATION_CREDITS}::int)),
             'Free-trial credits on registration'
      from ${credits} c join lot on lot.user_id = c.user_id)`;
}
