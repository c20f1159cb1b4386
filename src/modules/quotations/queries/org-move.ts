import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { quotations } from "../../../db/schema";
import { col } from "../../../db/sql";

/**
 * CTE of bring_data (the orgs module's acceptance statement): every quotation of organisation
 * `from` moved to organisation `to` when `when` holds (the invitation was used). Holders stay.
 * Proforma numbers are unique per organisation (ADR 0106): a moved one whose number the new
 * organisation already issued keeps it with its quotation's id as a suffix
 * (`PI-2026-0001-0b7f3c2a`), so the buyer's copy is still recognisable and nothing collides.
 */
export function quotationsOrgMove(from: SQL, to: SQL, when: SQL): SQL {
  const t = quotations;
  const taken = alias(quotations, "taken");
  return sql`org_moved_quotations as (
      update ${t} set ${col(t.orgId)} = ${to},
        ${col(t.proformaNo)} = case when exists (select 1 from ${t} ${taken}
            where ${taken.orgId} = ${to} and ${taken.proformaNo} = ${t.proformaNo})
          then ${t.proformaNo} || '-' || left(${t.id}::text, 8) else ${t.proformaNo} end
      where ${t.orgId} = ${from} and ${when} returning 1)`;
}
