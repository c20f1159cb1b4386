import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { notifications } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTE moving the notifications of
 * the guests in `guestIds` (a parenthesised subquery of user ids) to the account `userId`; a
 * dedupe key the account already has is dropped from the moved row.
 */
export function notificationsGuestMove(guestIds: SQL, userId: string): SQL {
  const n = alias(notifications, "n");
  const a = alias(notifications, "a");
  return sql`moved_notifications as (
      update ${notifications} ${n} set ${col(n.userId)} = ${userId}::uuid,
        ${col(n.dedupeKey)} = case when exists (select 1 from ${notifications} ${a}
                                       where ${a.userId} = ${userId}::uuid
                                         and ${a.dedupeKey} = ${n.dedupeKey})
                     then null else ${n.dedupeKey} end
      where ${n.userId} in ${guestIds})`;
}
