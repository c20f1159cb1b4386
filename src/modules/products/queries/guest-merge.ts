import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { products } from "../../../db/schema";
import { callerOrgSql } from "../../../db/scope";
import { col } from "../../../db/sql";

/**
 * Guest merge (auth's sign-in with a guest token, one statement): CTE moving the products of the
 * guests in `guestIds` (a parenthesised subquery of user ids) to the account `userId` and its
 * organisation. A SKU the organisation already uses is dropped from the moved product (unique
 * per organisation).
 */
export function productsGuestMove(guestIds: SQL, userId: string): SQL {
  const p = alias(products, "p");
  const a = alias(products, "a");
  return sql`moved_products as (
      update ${products} ${p} set ${col(p.userId)} = ${userId}::uuid,
        ${col(p.orgId)} = ${callerOrgSql(userId)},
        ${col(p.sku)} = case when exists (select 1 from ${products} ${a}
                                where ${a.orgId} = ${callerOrgSql(userId)} and ${a.sku} = ${p.sku})
              then null else ${p.sku} end
      where ${p.userId} in ${guestIds})`;
}
