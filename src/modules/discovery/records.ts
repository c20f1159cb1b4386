import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { Deps } from "../../deps";
import { notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { escapeLike } from "../../lib/sql-text";
import type { RecordInput } from "./schemas";
import type { DiscoveredCompany } from "./types";

/** Saved discovery searches (the search history): each row belongs to one user. */

interface RecordRow {
  id: string;
  product: string;
  market: string;
  companies: DiscoveredCompany[];
  created_at: Date | string;
}

const COLUMNS = sql.raw("id, product, market, companies, created_at");

const recordOut = (r: RecordRow) => ({
  id: r.id,
  product: r.product,
  market: r.market,
  companies: r.companies,
  created_at: iso(r.created_at),
});

const missing = () => notFound("Discovery record not found");

export async function saveRecord(deps: Deps, userId: string, input: RecordInput) {
  const [row] = await queryRows<RecordRow>(
    deps.db,
    sql`insert into discovery_records (user_id, product, market, companies, created_at)
        values (${userId}, ${input.product}, ${input.market},
          ${JSON.stringify(input.companies)}::jsonb, ${nowIso(deps)}::timestamptz)
        returning ${COLUMNS}`,
  );
  return recordOut(row!);
}

/**
 * Newest first, on the (user_id, created_at) index; `q` matches the product or the market
 * (a substring filter within the user's own rows, which that index already narrows).
 */
export async function listRecords(
  deps: Deps,
  userId: string,
  query: { page: number; size: number; q?: string },
) {
  const filters: SQL[] = [sql`user_id = ${userId}`];
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    filters.push(sql`(product ilike ${pattern} or market ilike ${pattern})`);
  }
  const { rows, total } = await selectPage<RecordRow>(deps.db, {
    columns: COLUMNS,
    from: sql`discovery_records`,
    where: sql.join(filters, sql` and `),
    order: sql`created_at desc, id desc`,
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((r) => ({ ...recordOut(r), company_count: r.companies.length })),
    total,
    page: query.page,
    size: query.size,
  };
}

/** Another user's record is as missing as one that does not exist. */
export async function getRecord(deps: Deps, userId: string, id: string) {
  const [row] = await queryRows<RecordRow>(
    deps.db,
    sql`select ${COLUMNS} from discovery_records where id = ${id} and user_id = ${userId}`,
  );
  if (!row) throw missing();
  return recordOut(row);
}

export async function deleteRecord(deps: Deps, userId: string, id: string) {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`delete from discovery_records where id = ${id} and user_id = ${userId} returning id`,
  );
  if (rows.length === 0) throw missing();
}
