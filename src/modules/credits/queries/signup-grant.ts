import { type SQL, sql } from "drizzle-orm";
import { type Cte, defineCte } from "../../../db/cte";
import { creditLedger, creditLots, orgCredits, orgMembers } from "../../../db/schema";
import { col, columnNames } from "../../../db/sql";

/** Registration grant (spec section 5): free-trial credits that go through the ledger. */
export const REGISTRATION_CREDITS = 30;

/**
 * The CTE signupBalance defines: per user, the wallet it made or topped up (ADR 0096) and its
 * balance.
 */
export const signupCredits = defineCte("credits", ["user_id", "org_id", "balance"]);
const signupWallet = defineCte("signup_wallet", ["org_id", "balance"]);

const grantLot = defineCte("lot", ["id", "user_id"]);
const grantLedger = defineCte("ledger");

/**
 * The organisation whose wallet a signing-up user opens: their membership when they have one (a
 * guest becoming an account), else their own id, the id the users_personal_org trigger gives a
 * new account's organisation when the statement ends (migration 0026, ADR 0098).
 */
function signupOrgOf(userId: SQL): SQL {
  const m = orgMembers;
  return sql`coalesce((select ${m.orgId} from ${orgMembers} ${m} where ${m.userId} = ${userId}), ${userId})`;
}

/**
 * CTE `credits` of a sign-up statement: the wallet of each user in `users` (a CTE with column
 * `id`), returning user_id, org_id and balance. `credits` 0 opens an empty wallet (a guest);
 * `topUp` adds to a wallet the user already has (a guest becoming an account) instead of
 * failing on it.
 */
export function signupBalance(
  users: Cte<string, "id">,
  { credits, topUp, at }: { credits: number; topUp?: boolean; at?: SQL },
): SQL {
  const c = orgCredits;
  const conflict = topUp
    ? sql` on conflict (${col(c.orgId)}) do update
        set ${col(c.balance)} = ${c.balance} + excluded.balance, ${col(c.updatedAt)} = ${at ?? sql`now()`}`
    : sql``;
  const userId = users.col("id");
  return sql`${signupWallet.as(sql`
      insert into ${c} (${col(c.orgId)}, ${col(c.balance)})
      select ${signupOrgOf(userId)}, ${credits}::int from ${users}${conflict}
      returning ${col(c.orgId)}, ${col(c.balance)}`)},
    ${signupCredits.as(sql`
      select ${userId} as user_id, ${signupWallet.col("org_id")}, ${signupWallet.col("balance")}
      from ${users} join ${signupWallet} on ${signupWallet.col("org_id")} = ${signupOrgOf(userId)}`)}`;
}

/**
 * The registration grant inside a sign-up statement: CTEs `lot` (REGISTRATION_CREDITS that
 * never expire) and `ledger` (its row), for the balance rows of `credits` (user_id, balance:
 * the balance after the grant), e.g. from signupBalance.
 */
export function registrationGrant(credits: Cte<string, "user_id" | "org_id" | "balance">): SQL {
  const l = creditLots;
  const g = creditLedger;
  const userId = credits.col("user_id");
  const orgId = credits.col("org_id");
  return sql`${grantLot.as(sql`
      insert into ${l} (${columnNames([l.orgId, l.userId, l.kind, l.granted, l.remaining, l.sourceType, l.sourceId])})
      select ${orgId}, ${userId}, 'registration_grant', ${REGISTRATION_CREDITS}::int,
             ${REGISTRATION_CREDITS}::int, 'user', ${userId}::text from ${credits}
      returning ${col(l.id)}, ${col(l.userId)}`)},
    ${grantLedger.as(sql`
      insert into ${g} (${columnNames([g.orgId, g.userId, g.delta, g.balanceAfter, g.kind, g.sourceType, g.sourceId, g.lots, g.note])})
      select ${orgId}, ${userId}, ${REGISTRATION_CREDITS}::int, ${credits.col("balance")}, 'registration_grant', 'user',
             ${userId}::text,
             jsonb_build_array(jsonb_build_object('lot_id', ${grantLot.col("id")}, 'amount', ${REGISTRATION_CREDITS}::int)),
             'Free-trial credits on registration'
      from ${credits} join ${grantLot} on ${grantLot.col("user_id")} = ${userId}`)}`;
}
