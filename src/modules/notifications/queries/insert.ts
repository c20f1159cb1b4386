import { is, SQL, sql } from "drizzle-orm";
import { notifications } from "../../../db/schema";
import { col, columnNames } from "../../../db/sql";

const n = notifications;

/** The columns a notification is inserted with, in the order the fragments select them. */
const INSERT_COLUMNS = columnNames([
  n.userId,
  n.kind,
  n.title,
  n.body,
  n.data,
  n.dedupeKey,
  n.createdAt,
]);

/** `on conflict (user_id, dedupe_key)`: one notification per user and episode. */
const ON_DEDUPE = sql`on conflict (${col(n.userId)}, ${col(n.dedupeKey)})`;

/**
 * Inserting notifications as a CTE body over a row source, for statements that change something
 * and notify about it atomically (`with ..., notice as (${notificationInsert(...)}) select ...`;
 * append `returning ...` after it to read the rows written).
 *
 * - `kind`: a fixed kind, or an expression over the source row `n` (e.g. `sql\`n.kind\``).
 * - `source`: a row source yielding columns user_id, title, body, data (jsonb) and dedupe_key
 *   (plus whatever `kind` reads).
 * - `now`: created_at, an ISO timestamp or an SQL expression.
 * - `onConflict`: what a repeat of (user_id, dedupe_key) does; `do nothing` by default. It may
 *   read the stored row through the schema (`${notifications.data}`) and `excluded`.
 */
export function notificationInsert(
  kind: string | SQL,
  source: SQL,
  now: string | SQL,
  onConflict: SQL = sql`do nothing`,
): SQL {
  const at = is(now, SQL) ? now : sql`${now}::timestamptz`;
  return sql`insert into ${n} (${INSERT_COLUMNS})
    select n.user_id, ${kind}, n.title, n.body, n.data, n.dedupe_key, ${at}
    from (${source}) n
    ${ON_DEDUPE} ${onConflict}`;
}

/** One notification to insert (see `notify` in ./service). */
export interface NotificationInput {
  userId: string;
  /** trial_ended, subscription_ended, referral_rewarded, certification_approved, ... */
  kind: string;
  title: string;
  body: string;
  data?: Record<string, unknown>;
  /** One notification per (user, dedupe key): a repeat of the same episode is dropped. */
  dedupeKey?: string;
}
