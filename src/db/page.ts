import { type SQL, sql } from "drizzle-orm";
import { offsetOf } from "../lib/pagination";
import {
  type Db,
  type PrebuiltStatement,
  prebuilt,
  queryPrebuilt,
  queryRows,
  queryRowsPrepared,
} from "./client";

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
  query: PageQuery,
): Promise<{ rows: T[]; total: number }> {
  const { from, where, page, size, total } = query;
  const rows = await queryRowsPrepared<T & { total_count: number | string }>(
    db,
    pageSql(query, size, offsetOf(page, size)),
  );
  return pageOf(rows, page, () => queryRows<{ n: number }>(db, totalSql(from, where, total)));
}

/** selectPage's statement, its limit and offset given (values or placeholders). */
function pageSql(
  { columns, from, where, order, total }: Omit<PageQuery, "page" | "size">,
  limit: unknown,
  offset: unknown,
): SQL {
  const counted = total ?? sql`(select count(*) from ${from} where ${where})`;
  return sql`select ${columns}, ${counted} as total_count
        from ${from} where ${where} order by ${order}
        limit ${limit} offset ${offset}`;
}

/** What counts the matches when the page lies past the end. */
const totalSql = (from: SQL, where: SQL, total: SQL | undefined) =>
  total ? sql`select ${total}::int as n` : countSql(from, where);

const countSql = (from: SQL, where: SQL) =>
  sql`select count(*)::int as n from ${from} where ${where}`;

/**
 * The page and its total from rows carrying `total_count`; a page past the end carries none, so
 * then (only) a second statement counts.
 */
async function pageOf<T>(
  rows: (T & { total_count: number | string })[],
  page: number,
  count: () => Promise<{ n: number }[]>,
): Promise<{ rows: T[]; total: number }> {
  if (rows.length > 0) {
    const total = Number(rows[0]!.total_count);
    // Copied without the column rather than `delete`d: a deleted key turns every row into a
    // dictionary-mode object, slower to read and to serialise for the rest of the request.
    return { rows: rows.map(({ total_count: _, ...row }) => row as T), total };
  }
  if (page === 1) return { rows: [], total: 0 };
  const [counted] = await count();
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
 * page's last row, which this never does. This is the statement, its limit and offset given
 * (values or placeholders); prebuiltMatchedPage renders it once.
 */
function matchedPageSql(
  {
    columns,
    from,
    where,
    key,
    sortKey,
    descending,
    nullsLast,
  }: Omit<MatchedPageQuery, "page" | "size">,
  limit: unknown,
  offset: unknown,
): SQL {
  const dir = sql.raw(descending ? "desc" : "asc");
  const nulls = sql.raw(nullsLast ? " nulls last" : "");
  const order = (alias: string) => {
    const a = sql.raw(alias);
    return sql`${a}.sort_key ${dir}${nulls}, ${a}.page_key ${dir}`;
  };
  return sql`with m as materialized (
          select ${key} as page_key, ${sortKey} as sort_key from ${from} where ${where})
        select ${columns}, (select count(*) from m) as total_count
        from (select page_key, sort_key from m order by ${order("m")}
              limit ${limit} offset ${offset}) p
        join ${from} on ${key} = p.page_key
        order by ${order("p")}`;
}

/**
 * A page statement rendered once (issue #22, ADR 0104): its values are placeholders
 * (`sql.placeholder(name)`), filled on each run by runPrebuiltPage. For a hot list whose
 * statement would otherwise be rendered from its parts on every request (the scope's
 * subqueries, the filters): cache one per shape of the list (which filters, which sort).
 */
export interface PrebuiltPage {
  page: PrebuiltStatement;
  /** The matches counted, for a page past the end. */
  count: PrebuiltStatement;
}

// The page's own placeholders, beside the caller's.
const LIMIT = sql.placeholder("pageLimit");
const OFFSET = sql.placeholder("pageOffset");

/** selectPage's statement rendered once; its values placeholders. */
export function prebuiltPage(query: Omit<PageQuery, "page" | "size">): PrebuiltPage {
  return {
    page: prebuilt(pageSql(query, LIMIT, OFFSET)),
    count: prebuilt(totalSql(query.from, query.where, query.total)),
  };
}

/** matchedPageSql's statement rendered once; its values placeholders. */
export function prebuiltMatchedPage(query: Omit<MatchedPageQuery, "page" | "size">): PrebuiltPage {
  return {
    page: prebuilt(matchedPageSql(query, LIMIT, OFFSET)),
    count: prebuilt(countSql(query.from, query.where)),
  };
}

/**
 * A page of a prebuilt page statement with `values` for its placeholders: the same rows, total
 * and statement text as selectPage or matchedPageSql built from the same parts.
 */
export async function runPrebuiltPage<T>(
  db: Db,
  statement: PrebuiltPage,
  values: Record<string, unknown>,
  { page, size }: { page: number; size: number },
): Promise<{ rows: T[]; total: number }> {
  const rows = await queryPrebuilt<T & { total_count: number | string }>(db, statement.page, {
    ...values,
    pageLimit: size,
    pageOffset: offsetOf(page, size),
  });
  return pageOf(rows, page, () => queryPrebuilt<{ n: number }>(db, statement.count, values));
}
