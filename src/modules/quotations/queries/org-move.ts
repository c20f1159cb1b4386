import { type SQL, sql } from "drizzle-orm";
import { quotations } from "../../../db/schema";

/**
 * CTE of bring_data (the orgs module's acceptance statement): every quotation of organisation
 * `from` moved to organisation `to` when `when` holds (the invitation was used). Holders stay.
 */
export function quotationsOrgMove(from: SQL, to: SQL, when: SQL): SQL {
  return sql`org_moved_quotations as (
      update ${quotations} set org_id = ${to}
      where org_id = ${from} and ${when} returning 1)`;
}
