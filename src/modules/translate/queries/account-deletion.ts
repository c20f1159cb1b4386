import { type SQL, sql } from "drizzle-orm";
import { translations } from "../../../db/schema";

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: this module's rows of the account (`userIds`) or of its personal organisation
 * (`orgIds`): its translations (the organisation's glossary is the glossary module's).
 */
export function accountDeletionCtes(p: { userIds: SQL; orgIds: SQL }): SQL {
  return sql`translate_translations as (delete from ${translations} where ${translations.userId} in ${p.userIds} returning 1)`;
}
