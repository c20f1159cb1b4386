import { type SQL, sql } from "drizzle-orm";
import { usageLogs } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the usage logs of
 * the guests in `guestIds` (a parenthesised subquery of user ids) to the account `userId`.
 */
export function usageLogsGuestMove(guestIds: SQL, userId: string): SQL {
  return sql`moved_usage_logs as (
      update ${usageLogs} set ${col(usageLogs.userId)} = ${userId}::uuid
      where ${usageLogs.userId} in ${guestIds})`;
}
