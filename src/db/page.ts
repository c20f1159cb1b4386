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
  { columns, from, where, order, page, size, total }: PageQuery,
): Promise<{ rows: T[]; total: number }> {
  const counted = total ?? sql`(select count(*) from ${from} where ${where})`;
  const rows = await queryRowsPrepared<T & { total_count: number | string }>(
    db,
    sql`select ${columns}, ${counted} as total_count
        from ${from} where ${where} order by ${order}
        limit ${size} offset ${offsetOf(page, size)}`,
  );
  return pageOf(db, rows, page, total ? sql`select ${total}::int as n` : countSql(from, where));
}

const countSql = (from: SQL, where: SQL) =>
  sql`select count(*)::int as n from ${from} where ${where}`;

/**
 * The page and its total from rows carrying `total_count`; a page past the end carries none, so
 * then (only) a second statement counts.
 */
async function pageOf<T>(
  db: Db,
  rows: (T & { total_count: number | string })[],
  page: number,
  count: SQL,
): Promise<{ rows: T[]; total: number }> {
  if (rows.length > 0) {
    const total = Number(rows[0]!.total_count);
    // Copied without the column rather than `delete`d: a deleted key turns every row into a
    // dictionary-mode object, slower to read and to serialise for the rest of the request.
    return { rows: rows.map(({ total_count: _, ...row }) => row as T), total };
  }
  if (page === 1) return { rows: [], total: 0 };
  const [counted] = await queryRows<{ n: number }>(db, count);
  return { rows: [], total: counted?.n ?? 0 };
}

export interface MatchedPageQuery {
  /** Select list over `from`'s alias, without the total. */
  columns: SQL;
  from: SQL;
  where: SQL;
  /** The row's unique key in `from` (e.g. `c.id`): the order's last tie-break, the join back. */
  key: SQL;
  /** What the page is ordered by before the key (e.g. `c.created_at`, `lower(c.company)`). */
  sortKey: SQL;
  descending: boolean;
  /** Rows without a sort key come last, either direction. */
  nullsLast: boolean;
  page: number;
  size: number;
}

/**
 * A page of a search and its total, reading the matches once (issue #13 item 1, ADR 0082). A
 * search reaches its matches through the trigram index's bitmap, all of them: the app's named
 * statement runs a generic plan, which cannot know whether a term is common enough for an
 * ordered scan to stop early. selectPage's shape then reads them twice, for the count and for
 * the page, and sorts whole rows. Here the matches' keys and sort keys are materialised once,
 * counted, the page's keys taken from them, and only the page's rows read, by key.
 * Not for lists whose total is kept elsewhere or whose order an index serves: those stop at the
 * page's last row, which this never does.
 */
export async function selectMatchedPage<T>(
  db: Db,
  { columns, from, where, key, sortKey, descending, nullsLast, page, size }: MatchedPageQuery,
): Promise<{ rows: T[]; total: number }> {
  const dir = sql.raw(descending ? "desc" : "asc");
  const nulls = sql.raw(nullsLast ? " nulls last" : "");
  const order = (alias: string) => {
    const a = sql.raw(alias);
    return sql`${a}.sort_key ${dir}${nulls}, ${a}.page_key ${dir}`;
  };
  const rows = await queryRowsPrepared<T & { total_count: number | string }>(
    db,
    sql`with m as materialized (
          select ${key} as page_key, ${sortKey} as sort_key from ${from} where ${where})
        select ${columns}, (select count(*) from m) as total_count
        from (select page_key, sort_key from m order by ${order("m")}
              limit ${size} offset ${offsetOf(page, size)}) p
        join ${from} on ${key} = p.page_key
        order by ${order("p")}`,
  );
  return pageOf(db, rows, page, countSql(from, where));
}
