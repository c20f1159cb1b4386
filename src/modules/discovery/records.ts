import { notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import {
  deleteRecordRow,
  findRecord,
  insertRecord,
  listRecordsPage,
  type RecordRow,
} from "./queries";
import type { RecordInput } from "./schemas";
import type { DiscoveredCompany } from "./types";

/**
 * Saved discovery searches (the search history): each row is the member's who saved it; a
 * member sees their own, managers and above the organisation's (queries: db/scope.ts).
 */

const recordOut = (r: RecordRow) => ({
  id: r.id,
  product: r.product,
  market: r.market,
  companies: r.companies as DiscoveredCompany[],
  created_at: iso(r.created_at),
  org_id: r.org_id,
  user_id: r.user_id,
  owner_name: r.owner_name,
});

const missing = () => notFound("Discovery record not found");

export async function saveRecord(deps: Deps, userId: string, input: RecordInput) {
  const row = await insertRecord(deps.db, {
    userId,
    product: input.product,
    market: input.market,
    companies: input.companies,
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
