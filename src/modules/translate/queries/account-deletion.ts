import { type SQL, sql } from "drizzle-orm";
import { glossaryTerms, mtGlossaries, translations } from "../../../db/schema";

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: this module's rows of the account (`userIds`) or of its personal organisation
 * (`orgIds`, only ever the organisation it is the sole member of): its translations, and the
 * organisation's glossary with the provider glossary ids cached for it (the organisation row
 * stays, so nothing cascades; a DeepL glossary is left to its account's own limits).
 */
export function accountDeletionCtes(p: { userIds: SQL; orgIds: SQL }): SQL {
  return sql.join(
    [
      sql`translate_translations as (delete from ${translations} where ${translations.userId} in ${p.userIds} returning 1)`,
      sql`translate_glossary as (delete from ${glossaryTerms} where ${glossaryTerms.orgId} in ${p.orgIds} returning 1)`,
      sql`translate_mt_glossaries as (delete from ${mtGlossaries} where ${mtGlossaries.orgId} in ${p.orgIds} returning 1)`,
    ],
    sql`, `,
  );
}
