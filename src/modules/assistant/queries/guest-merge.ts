import { type SQL, sql } from "drizzle-orm";
import { aiActions, aiConversations, aiMessages } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTEs moving the assistant
 * conversations, messages and proposed actions of the guests in `guestIds` (a parenthesised subquery of user ids) to
 * the account `userId`.
 */
export function assistantGuestMove(guestIds: SQL, userId: string): SQL {
  return sql.join(
    [
      sql`moved_ai_conversations as (
      update ${aiConversations} set ${col(aiConversations.userId)} = ${userId}::uuid
      where ${aiConversations.userId} in ${guestIds})`,
      sql`moved_ai_messages as (
      update ${aiMessages} set ${col(aiMessages.userId)} = ${userId}::uuid
      where ${aiMessages.userId} in ${guestIds})`,
      sql`moved_ai_actions as (
      update ${aiActions} set ${col(aiActions.userId)} = ${userId}::uuid
      where ${aiActions.userId} in ${guestIds})`,
    ],
    sql`, `,
  );
}
