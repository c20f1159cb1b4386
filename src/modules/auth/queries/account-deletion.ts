import { type SQL, sql } from "drizzle-orm";
import { defineCte } from "../../../db/cte";
import { emailTokens } from "../../../db/schema";
import { revokeTokensCte } from "./index";

/** The deleted account's sessions, ended (their family ids, for this instance to refuse at once). */
export const deletedAccountSessions = defineCte("auth_ended", ["family_id"]);

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: every session of the account ends and its mailed links go.
 */
export function accountDeletionCtes(p: { userIds: SQL; at: SQL }): SQL {
  return sql`${revokeTokensCte(deletedAccountSessions, p.userIds, p.at)},
    auth_links as (delete from ${emailTokens} where ${emailTokens.userId} in ${p.userIds} returning 1)`;
}
