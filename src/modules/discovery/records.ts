import { notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { markExistingCustomers } from "./customer-match";
import {
  deleteRecordRow,
  findRecord,
  insertRecord,
  listRecordsPage,
  type RecordRow,
} from "./queries";
import type { RecordInput } from "./schemas";
import { storedCompanies } from "./stored-company";

/**
 * Saved discovery searches (the search history): each row is the member's who saved it; a
 * member sees their own, managers and above the organisation's (queries: db/scope.ts).
 */

const recordOut = (r: RecordRow) => ({
  id: r.id,
  product: r.product,
  market: r.market,
  companies: storedCompanies(r.companies),
  created_at: iso(r.created_at),
  org_id: r.org_id,
  user_id: r.user_id,
  owner_name: r.owner_name,
});

const missing = () => notFound("Discovery record not found");

/**
 * Saves the companies as sent, but `existing_customer_id` is matched again (one query): a body
 * cannot name a customer the caller does not see.
 */
export async function saveRecord(deps: Deps, userId: string, input: RecordInput) {
  const companies =
    input.companies.length > 0
      ? await markExistingCustomers(
          deps,
          userId,
          input.companies.map((c) => ({ ...c, existing_customer_id: null })),
        )
      : [];
  const row = await insertRecord(deps.db, {
    userId,
    product: input.product,
    market: input.market,
    companies,
    now: nowIso(deps),
  });
  return recordOut(row);
}

/** Newest first; `q` matches the product or the market. */
export async function listRecords(
  deps: Deps,
  userId: string,
  query: { page: number; size: number; q?: string },
) {
  const { rows, total } = await listRecordsPage(deps.db, { userId, ...query });
  return {
    items: rows.map((r) => ({ ...recordOut(r), company_count: r.companies.length })),
    total,
    page: query.page,
    size: query.size,
  };
}

/** A record the caller does not see (a colleague's, another organisation's) is as missing as one that does not exist. */
export async function getRecord(deps: Deps, userId: string, id: string) {
  const row = await findRecord(deps.db, { userId, id });
  if (!row) throw missing();
  return recordOut(row);
}

export async function deleteRecord(deps: Deps, userId: string, id: string) {
  if (!(await deleteRecordRow(deps.db, { userId, id }))) throw missing();
}
