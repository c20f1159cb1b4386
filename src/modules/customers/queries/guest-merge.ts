import { type SQL, sql } from "drizzle-orm";
import { customers, followupLogs } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the customers and
 * follow-up logs of the guests in `guestIds` (a parenthesised subquery of user ids) to the account
 * `userId`.
 */
export function customersGuestMove(guestIds: SQL, userId: string): SQL {
  return sql.join(
    [
      sql`moved_customers as (
      update ${customers} set ${col(customers.userId)} = ${userId}::uuid
      where ${customers.userId} in ${guestIds})`,
      sql`moved_followup_logs as (
      update ${followupLogs} set ${col(followupLogs.userId)} = ${userId}::uuid
      where ${followupLogs.userId} in ${guestIds})`,
    ],
    sql`, `,
  );
}
