import { type SQL, sql } from "drizzle-orm";
import { usageLogs, userUsage } from "../../../db/schema";

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: this module's rows of the account (`userIds`) or of its personal organisation
 * (`orgIds`, only ever the organisation it is the sole member of).
 */
export function accountDeletionCtes(p: { userIds: SQL; orgIds: SQL }): SQL {
  return sql.join(
    [
      sql`usage_usageLogs as (delete from ${usageLogs} where ${usageLogs.userId} in ${p.userIds} returning 1)`,
      sql`usage_userUsage as (delete from ${userUsage} where ${userUsage.userId} in ${p.userIds} returning 1)`,
    ],
    sql`, `,
  );
}
