import { type SQL, sql } from "drizzle-orm";
import { paymentTransactions } from "../../../db/schema";

/**
 * CTE of bring_data (the orgs module's acceptance statement): the credit orders of organisation
 * `from` follow its wallet to organisation `to` when `when` holds (the invitation was used).
 * credit_move_org empties the old wallet into the new one and the old organisation keeps no
 * member, so an order left there would grant a late payment's credits into a wallet nobody can
 * reach, and a refund would take back nothing while the company keeps the credits (ADR 0102).
 * Plan orders stay: the plan stays on the organisation it was paid for (ADR 0102).
 */
export function paymentsOrgMove(from: SQL, to: SQL, when: SQL): SQL {
  const t = paymentTransactions;
  return sql`org_moved_credit_orders as (
      update ${t} set org_id = ${to}
      where ${t.orgId} = ${from} and ${t.kind} = 'credits' and ${when} returning 1)`;
}
