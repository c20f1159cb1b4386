import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { defineCte } from "../../../db/cte";
import { customers } from "../../../db/schema";
import { callerOrgSql } from "../../../db/scope";
import { columnNames } from "../../../db/sql";
import { customersKeptSql } from "../../entitlements/queries";
import { readableBy } from "./index";

/** A lead the AI agent found, to become a customer (source `agent`, status `new`). */
export interface LeadCustomer {
  /** 1-based position of the lead: the order slots are given in. */
  ord: number;
  /** The new customer's id, used when the lead is saved. */
  id: string;
  company: string;
  email: string | null;
  phone: string | null;
  country: string | null;
  notes: string;
}

/**
 * The agent's leads saved as customers of `userId`, with the plan's customers limit, as CTEs
 * for one statement (the caller's: it finishes the run with what was saved, atomically). Saved
 * leads are held by the member who ran the agent, in their organisation. A lead matching a
 * customer the user sees (src/db/scope.ts: theirs or the pool's for a member, the organisation's
 * for a manager; same e-mail, else same company case-insensitively) is a duplicate and not
 * saved; new leads take the free slots of the `customers` limit of the organisation's plan
 * (plan_limit, counted per organisation) in `ord` order, the rest are left out. `noNewCustomers` gives no slot at all
 * (the last try after concurrent inserts took the slots: the insert trigger is the authority,
 * SQLSTATE PL001). Nothing is inserted unless `when` holds.
 *
 * Defines, for the caller to read:
 * - `matched`: the leads (ord, id, company, email, phone, country, notes) and `existing`, the
 *   id of the customer a duplicate matches (null for a new lead);
 * - `quota`: `max` (the limit, null: none) and `slots` (free slots, null: unlimited);
 * - `placed`: `matched` with `keep` (saved) and `over_limit` (new, but no slot left);
 * - `saved`: the ids inserted.
 */
// The CTEs of leadCustomersCtes that the statement embedding it reads (agent's save; ADR 0096).
export const leadMatches = defineCte("matched", ["existing"]);
export const leadQuota = defineCte("quota", ["max", "slots"]);
export const leadPlacements = defineCte("placed", ["id", "ord", "existing", "keep", "over_limit"]);
export const savedLeads = defineCte("saved", ["id"]);

export function leadCustomersCtes(params: {
  userId: string;
  leads: LeadCustomer[];
  noNewCustomers: boolean;
  now: string;
  when: SQL;
}): SQL {
  const { userId, now } = params;
  const c = alias(customers, "c");
  return sql`lead_input as (
      select l.ord, l.id, l.company, l.email, l.phone, l.country, l.notes
      from jsonb_to_recordset(${JSON.stringify(params.leads)}::jsonb)
        as l(ord int, id uuid, company text, email text, phone text, country text, notes text)),
    ${leadMatches.as(sql`
      select i.*, coalesce(
          (select ${c.id} from ${customers} ${c}
           where ${readableBy(c, userId)} and i.email is not null and ${c.email} = i.email
           limit 1),
          (select ${c.id} from ${customers} ${c}
           where ${readableBy(c, userId)} and lower(${c.company}) = lower(i.company)
           limit 1)) as existing
      from lead_input i`)},
    ${leadQuota.as(sql`
      select q.max, case when ${params.noNewCustomers}::boolean then 0 when q.max is null then null
          else greatest(q.max - ${customersKeptSql(callerOrgSql(userId))}, 0) end as slots
      from (select plan_limit(${userId}::uuid, 'customers') as max) q`)},
    ${leadPlacements.as(sql`
      select m.*, m.existing is null and (${leadQuota.col("slots")} is null or m.fresh_rank <= ${leadQuota.col("slots")})
          as keep,
        m.existing is null and not (${leadQuota.col("slots")} is null or m.fresh_rank <= ${leadQuota.col("slots")})
          as over_limit
      from (select ${leadMatches.all}, row_number() over (partition by existing is null order by ord)
              as fresh_rank
            from ${leadMatches}) m, ${leadQuota}`)},
    ${savedLeads.as(sql`
      insert into ${customers} (${columnNames([
        customers.id,
        customers.userId,
        customers.company,
        customers.email,
        customers.phone,
        customers.country,
        customers.source,
        customers.status,
        customers.notes,
        customers.createdAt,
        customers.updatedAt,
      ])})
      select m.id, ${userId}, m.company, m.email, m.phone, m.country, 'agent', 'new', m.notes,
        ${now}::timestamptz, ${now}::timestamptz
      from ${leadPlacements} m where m.keep and ${params.when}
      returning ${customers.id}`)}`;
}
