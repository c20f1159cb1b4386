import { type SQL, sql } from "drizzle-orm";
import { defineCte } from "../../../db/cte";
import { products } from "../../../db/schema";

/** The products productsOrgMove moved, each with whether it lost its SKU (orgs counts those). */
export const movedProducts = defineCte("moved_products", ["lost_sku"]);

/**
 * CTEs of bring_data (the orgs module's acceptance statement): every product of organisation
 * `from` moved to organisation `to` when `when` holds (the invitation was used). A SKU the new
 * catalogue already has is dropped from the moved product (unique per organisation); the
 * product itself is kept.
 */
export function productsOrgMove(from: SQL, to: SQL, when: SQL): SQL {
  return sql`clashing as (
      select pr.id from ${products} pr
      where pr.org_id = ${from} and pr.sku is not null and ${when}
        and exists (select 1 from ${products} q where q.org_id = ${to} and q.sku = pr.sku)),
    ${movedProducts.as(sql`
      update ${products} pr set org_id = ${to},
        sku = case when pr.id in (select id from clashing) then null else pr.sku end
      where pr.org_id = ${from} and ${when}
      returning pr.id in (select id from clashing) as lost_sku`)}`;
}
