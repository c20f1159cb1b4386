import { type SQL, sql } from "drizzle-orm";
import { discoveryRecords } from "../../../db/schema";
import { callerOrgSql } from "../../../db/scope";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the discovery
 * records of the guests in `guestIds` (a parenthesised subquery of user ids) to the account
 * `userId` and its organisation.
 */
export function discoveryGuestMove(guestIds: SQL, userId: string): SQL {
  return sql`moved_discovery_records as (
      update ${discoveryRecords} set ${col(discoveryRecords.userId)} = ${userId}::uuid,
        ${col(discoveryRecords.orgId)} = ${callerOrgSql(userId)}
      where ${discoveryRecords.userId} in ${guestIds})`;
}
