import { type SQL, sql } from "drizzle-orm";
import { marketingContents, marketingEvents } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the marketing
 * contents and events of the guests in `guestIds` (a parenthesised subquery of user ids) to the
 * account `userId`.
 */
export function marketingGuestMove(guestIds: SQL, userId: string): SQL {
  return sql.join(
    [
      sql`moved_marketing_contents as (
      update ${marketingContents} set ${col(marketingContents.userId)} = ${userId}::uuid
      where ${marketingContents.userId} in ${guestIds})`,
      sql`moved_marketing_events as (
      update ${marketingEvents} set ${col(marketingEvents.userId)} = ${userId}::uuid
      where ${marketingEvents.userId} in ${guestIds})`,
    ],
    sql`, `,
  );
}
