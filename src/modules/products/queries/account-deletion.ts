import { type SQL, sql } from "drizzle-orm";
import { products } from "../../../db/schema";

/**
 * An account's deletion (DELETE /api/v1/users/me, ADR 0107) as CTEs of the users module's one
 * statement: this module's rows of the account (`userIds`) or of its personal organisation
 * (`orgIds`, only ever the organisation it is the sole member of).
 */
export function accountDeletionCtes(p: { userIds: SQL; orgIds: SQL }): SQL {
  return sql.join(
    [
      sql`products_products as (delete from ${products} where ${products.orgId} in ${p.orgIds} returning 1)`,
    ],
    sql`, `,
  );
}
