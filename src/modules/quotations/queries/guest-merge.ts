import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { quotations } from "../../../db/schema";
import { callerOrgSql } from "../../../db/scope";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTE moving the quotations of the
 * guests in `guestIds` (a parenthesised subquery of user ids) to the account `userId` and its organisation. Quotation
 * numbers are per user: a moved number the account already has gets a suffix, the same for every
 * revision of that number (from the guest and the number, not the row), so a revision chain
 * keeps one number. Proforma numbers are per organisation (ADR 0106): one the account's
 * organisation already issued gets the quotation's id as a suffix.
 */
export function quotationsGuestMove(guestIds: SQL, userId: string): SQL {
  const q = alias(quotations, "q");
  const a = alias(quotations, "a");
  return sql`moved_quotations as (
      update ${quotations} ${q} set ${col(q.userId)} = ${userId}::uuid,
        ${col(q.orgId)} = ${callerOrgSql(userId)},
        ${col(q.quoteNo)} = case when exists (select 1 from ${quotations} ${a}
                                     where ${a.userId} = ${userId}::uuid
                                       and ${a.quoteNo} = ${q.quoteNo})
                   then ${q.quoteNo} || '-G' || upper(left(md5(${q.userId}::text || ${q.quoteNo}), 6))
                   else ${q.quoteNo} end,
        ${col(q.proformaNo)} = case when exists (select 1 from ${quotations} ${a}
                                     where ${a.orgId} = ${callerOrgSql(userId)}
                                       and ${a.proformaNo} = ${q.proformaNo})
                   then ${q.proformaNo} || '-' || left(${q.id}::text, 8)
                   else ${q.proformaNo} end
      where ${q.userId} in ${guestIds})`;
}
