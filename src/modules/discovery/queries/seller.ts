import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { customers, products, users } from "../../../db/schema";
import { inCallerOrg, visibleTo } from "../../../db/scope";
import { escapeLike } from "../../../lib/sql-text";

/**
 * What discovery reads about the seller (issue #24, item 5; ADR 0112): who they are and what
 * they sell (for the analysis prompt's roles), and which of their customers a discovered
 * company may be (existing_customer_id).
 */

export interface SellerContextRow {
  company: string | null;
  categories: string[] | null;
  product_names: string[] | null;
}

/** The seller's company name, catalogue categories and newest product names, in one query. */
export async function sellerContext(db: Db, userId: string): Promise<SellerContextRow> {
  const u = alias(users, "seller");
  const p = alias(products, "p");
  const [row] = await queryRows<SellerContextRow>(
    db,
    sql`select
        (select ${u.company} from ${users} ${u} where ${u.id} = ${userId}::uuid) as company,
        array(select distinct ${p.category} from ${products} ${p}
          where ${inCallerOrg(p, userId)} and ${p.category} is not null
          order by ${p.category} limit 10) as categories,
        array(select ${p.name} from ${products} ${p}
          where ${inCallerOrg(p, userId)}
          order by ${p.createdAt} desc limit 15) as product_names`,
  );
  return row ?? { company: null, categories: [], product_names: [] };
}

export interface CustomerCandidateRow {
  id: string;
  company: string | null;
  email: string | null;
  user_id: string | null;
}

/** Candidates read at most per search: enough for 50 companies' look-alikes. */
const CANDIDATE_LIMIT = 500;

/**
 * The customers the caller sees (their own and the pool's; a manager's, the whole
 * organisation's: db/scope.ts) whose company name or email could be one of the discovered
 * companies, in one query for all of them. `patterns` are substrings of the lower-cased
 * search text (company, contact, email): each registrable domain, and each normalised name
 * with its word breaks as wildcards. The trigram index (customers_search_idx, on org_id and
 * search_text) serves them; the exact comparison is the caller's (company-identity.ts). The
 * caller's own customers first, then the pool's, then the oldest.
 */
export function customerCandidates(
  db: Db,
  params: { userId: string; patterns: string[] },
): Promise<CustomerCandidateRow[]> {
  if (params.patterns.length === 0) return Promise.resolve([]);
  return queryRows<CustomerCandidateRow>(db, customerCandidatesSql(params));
}

/** customerCandidates' statement (its plan is checked in the tests). */
export function customerCandidatesSql(params: { userId: string; patterns: string[] }): SQL {
  const c = customers;
  const likes = params.patterns.map((p) => `%${escapeLike(p).replace(/ /g, "%")}%`);
  return sql`select ${c.id}, ${c.company}, ${c.email}, ${c.userId}
      from ${c}
      where ${visibleTo(c, params.userId, { pool: true })}
        and (${sql.join(
          likes.map((like) => sql`${c.searchText} like ${like}`),
          sql` or `,
        )})
      order by (${c.userId} = ${params.userId}::uuid) desc nulls last, ${c.createdAt}, ${c.id}
      limit ${CANDIDATE_LIMIT}`;
}
