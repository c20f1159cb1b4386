import { type SQL, sql } from "drizzle-orm";
import { customers, followupLogs } from "../../../db/schema";
import { callerOrgSql } from "../../../db/scope";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the customers and
 * follow-up logs of the guests in `guestIds` (a parenthesised subquery of user ids) to the account
 * `userId`, into the account's organisation (issue #22): a guest's rows were in the guest's own
 * personal organisation, where the account would never see them again.
 */
export function customersGuestMove(guestIds: SQL, userId: string): SQL {
  const accountOrg = callerOrgSql(userId);
  return sql.join(
    [
      sql`moved_customers as (
      update ${customers} set ${col(customers.userId)} = ${userId}::uuid,
        ${col(customers.orgId)} = ${accountOrg}
      where ${customers.userId} in ${guestIds})`,
      sql`moved_followup_logs as (
      update ${followupLogs} set ${col(followupLogs.userId)} = ${userId}::uuid,
        ${col(followupLogs.orgId)} = ${accountOrg}
      where ${followupLogs.userId} in ${guestIds})`,
    ],
    sql`, `,
  );
}
