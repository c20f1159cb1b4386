import { type SQL, sql } from "drizzle-orm";
import { translations } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the translations of
 * the guests in `guestIds` (a parenthesised subquery of user ids) to the account `userId`.
 */
export function translationsGuestMove(guestIds: SQL, userId: string): SQL {
  return sql`moved_translations as (
      update ${translations} set ${col(translations.userId)} = ${userId}::uuid
      where ${translations.userId} in ${guestIds})`;
}
