import { type SQL, sql } from "drizzle-orm";
import { aiActions, aiConversations, aiMessages } from "../../../db/schema";

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: this module's rows of the account (`userIds`) or of its personal organisation
 * (`orgIds`, only ever the organisation it is the sole member of).
 */
export function accountDeletionCtes(p: { userIds: SQL; orgIds: SQL }): SQL {
  return sql.join(
    [
      sql`assistant_aiActions as (delete from ${aiActions} where ${aiActions.userId} in ${p.userIds} returning 1)`,
      sql`assistant_aiMessages as (delete from ${aiMessages} where ${aiMessages.userId} in ${p.userIds} returning 1)`,
      sql`assistant_aiConversations as (delete from ${aiConversations} where ${aiConversations.userId} in ${p.userIds} returning 1)`,
    ],
    sql`, `,
  );
}
