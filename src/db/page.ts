import { type SQL, sql } from "drizzle-orm";
import { offsetOf } from "../lib/pagination";
import { type Db, queryRows, queryRowsPrepared } from "./client";

export interface PageQuery {
  /** Select list, without the total. */
  columns: SQL;
  from: SQL;
  where: SQL;
  order: SQL;
  page: number;
  size: number;
  /**
   * The number of matches when something cheaper than counting them knows it (a counter kept
   * by the writes); by default `count(*)` over `from where`.
   */
  total?: SQL;
  /**
   * The row's key in `from` (e.g. `c.id`). Given, the page is found on the key alone (a subquery
   * that an index holding the filter and order columns answers by an index-only scan stopping at
   * the page's last row) and only the page's rows are then read, by key: the statement no longer
   * reads every match's row to sort them (issue #13 item 1).
   */
  pageKey?: SQL;
}

/**
 * A page of rows and the total of matches in one round trip. The total is an uncorrelated
 * scalar subquery (run once, planned on its own), not `count(*) over ()`: a window makes the
 * page query read every match before its limit, and the planner, costing it as if it stopped at
 * the limit, then prefers an ordered index scan filtering thousands of rows over a selective
 * index. Only when the page lies past the end does a second query count the matches.
 * A named statement: planning this text costs more than running it on a selective index.
 */
export async function selectPage<T>(
  db: Db,
  { columns, from, where, order, page, size, total, pageKey }: PageQuery,
): Promise<{ rows: T[]; total: number }> {
  const counted = total ?? sql`(select count(*) from ${from} where ${where})`;
  const limit = sql`limit ${size} offset ${offsetOf(page, size)}`;
  const rows = await queryRowsPrepared<T & { total_count: number | string }>(
    db,
    pageKey
      ? sql`select ${columns}, ${counted} as total_count
          from (select ${pageKey} as page_key from ${from} where ${where} order by ${order} ${limit}) p
          join ${from} on ${pageKey} = p.page_key
          order by ${order}`
      : sql`select ${columns}, ${counted} as total_count
          from ${from} where ${where} order by ${order} ${limit}`,
  );
  if (rows.length > 0) {
    const total = Number(rows[0]!.total_count);
    // Copied without the column rather than `delete`d: a deleted key turns every row into a
    // dictionary-mode object, slower to read and to serialise for the rest of the request.
    return { rows: rows.map(({ total_count: _, ...row }) => row as T), total };
  }
  if (page === 1) return { rows: [], total: 0 };
  const [count] = await queryRows<{ n: number }>(
    db,
    total
      ? sql`select ${total}::int as n`
      : sql`select count(*)::int as n from ${from} where ${where}`,
  );
  return { rows: [], total: count?.n ?? 0 };
}
