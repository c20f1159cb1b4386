import { type SQL, sql } from "drizzle-orm";
import { orgInvitations, orgs } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: its personal organisation (`orgIds`, only ever one it is the sole member of) stays,
 * since the credit ledger and payments name it, but loses its name (made from the account's
 * company, name or address) and its pending invitations.
 */
export function accountDeletionCtes(p: { orgIds: SQL; at: SQL }): SQL {
  return sql`orgs_invitations as (delete from ${orgInvitations}
      where ${orgInvitations.orgId} in ${p.orgIds} returning 1),
    orgs_renamed as (update ${orgs} set ${col(orgs.name)} = 'Deleted account', ${col(orgs.updatedAt)} = ${p.at}
      where ${orgs.id} in ${p.orgIds} returning 1)`;
}
