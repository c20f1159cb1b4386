import type { Db } from "../../db/client";
import type { Deps } from "../../ports";
import { type PushCounts, pushPendingNotifications } from "../notifications/push";
import {
  DIGEST_TOP,
  type DigestRow,
  type DueCustomer,
  followupBatch,
  type ReminderBatch,
  type ReminderCursor,
  silentBatch,
  upsertDigests,
} from "./queries/reminders";

/** One user's due customers over a whole run: counts, and the first few of each walk. */
interface UserTally {
  silent: number;
  followups_due: number;
  top: DueCustomer[];
}

/**
 * Due customers one read of a walk takes. The reads lock nothing, so a long one delays no
 * user's write: pages are as long as memory allows, not timed as the locking tasks' batches are
 * (timed to 4 ms on busy cores they were ten rows each: thousands of statements at 1M customers).
 */
const WALK_PAGE = 5000;

/**
 * Digests one statement writes. Nearly all are new rows (a user's first of the day), which no
 * user's write can be waiting on; a rerun's changed ones are rows only their reader marks.
 */
const DIGEST_CHUNK = 2000;

/**
 * Walks every due customer of one kind a page at a time, in index order (most overdue first),
 * folding each page's per-user counts into `tally`: a user's first DIGEST_TOP items of the walk
 * are their most overdue of that kind. Returns the customers seen.
 */
async function walk(
  db: Db,
  batch: (
    db: Db,
    params: { now: string; limit: number; after: ReminderCursor | null },
  ) => Promise<ReminderBatch>,
  now: string,
  tally: Map<string, UserTally>,
  field: "silent" | "followups_due",
  page: number,
): Promise<number> {
  let seen = 0;
  let after: ReminderCursor | null = null;
  for (;;) {
    const done = await batch(db, { now, limit: page, after });
    seen += done.taken;
    for (const u of done.users) {
      let t = tally.get(u.user_id);
      if (!t) {
        t = { silent: 0, followups_due: 0, top: [] };
        tally.set(u.user_id, t);
      }
      t[field] += u.n;
      // The first DIGEST_TOP of each kind (walk order: the most overdue of that kind).
      const kind = field === "silent" ? "silent" : "followup_due";
      const room = DIGEST_TOP - t.top.filter((d) => d.reason === kind).length;
      if (room > 0) t.top.push(...u.top.slice(0, room));
    }
    after = done.next;
    if (!after || done.taken < page) return seen;
  }
}

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The digest of one user: title and body from the counts, the DIGEST_TOP most overdue named. */
function digestOf(userId: string, t: UserTally, now: string): DigestRow {
  const day = now.slice(0, 10);
  const parts = [
    t.followups_due > 0 ? `${plural(t.followups_due, "follow-up", "follow-ups")} due` : null,
    t.silent > 0 ? `${plural(t.silent, "customer", "customers")} gone quiet` : null,
  ].filter((p): p is string => p !== null);
  const title = parts.join(", ");
  const urgent = [...t.top]
    .sort((a, b) => b.overdue_ms - a.overdue_ms)
    .slice(0, DIGEST_TOP)
    .map(({ overdue_ms: _, ...item }) => ({ ...item, since: new Date(item.since).toISOString() }));
  const named = urgent.map((u) =>
    u.reason === "silent"
      ? `${u.customer_name} (quiet ${plural(u.overdue_days, "day", "days")} past the limit)`
      : `${u.customer_name} (follow-up ${plural(u.overdue_days, "day", "days")} overdue)`,
  );
  return {
    user_id: userId,
    title,
    body: `${title}. Most overdue: ${named.join("; ")}.`,
    data: {
      silent: t.silent,
      followups_due: t.followups_due,
      most_urgent: urgent,
      as_of: now,
      day,
    },
    dedupe_key: `reminder_digest:${day}`,
  };
}

/**
 * The silence and follow-up task: ONE notification per user and UTC day (kind `reminder_digest`,
 * ADR 0091), never one per customer. Both walks read every due customer in pages of index
 * order (each page one read-only statement folded per user), then the digests are written
 * DIGEST_CHUNK users to a statement.
 *   - a digest holds the counts (`silent`, `followups_due`) and the DIGEST_TOP most overdue
 *     customers of either kind (`most_urgent`, by how long past due);
 *   - one per user and UTC day (dedupe key `reminder_digest:<YYYY-MM-DD>`): the day's first run
 *     inserts it (pushed once by the push step below), a rerun the same day refreshes its counts
 *     in place without a second push or marking it unread. Two instances at once write one row.
 * Silent: status not won or lost, and silent past customers.silence_days (system config).
 * Due: next_followup_at has come and the customer is not lost or dormant (they have no cadence).
 * `silent` and `followups_due` in the result count the due customers seen; `digests` the new
 * rows; `pushed` is absent when pushing is off.
 */
export async function notifyCustomerReminders(
  deps: Deps,
  /** A shorter walk page than WALK_PAGE (tests: many pages over few customers). */
  sizes: { page?: number } = {},
): Promise<{
  silent: number;
  followups_due: number;
  digests: number;
  pushed?: PushCounts;
}> {
  const now = deps.clock.now().toISOString();
  const tally = new Map<string, UserTally>();
  const page = sizes.page ?? WALK_PAGE;
  const silent = await walk(deps.db, silentBatch, now, tally, "silent", page);
  const followups = await walk(deps.db, followupBatch, now, tally, "followups_due", page);

  const rows = [...tally].map(([userId, t]) => digestOf(userId, t, now));
  let digests = 0;
  for (let i = 0; i < rows.length; i += DIGEST_CHUNK) {
    const done = await upsertDigests(deps.db, { rows: rows.slice(i, i + DIGEST_CHUNK), now });
    digests += done.inserted;
  }
  const written = { silent, followups_due: followups, digests };
  // After the insert has committed, so a failed push never loses a notification.
  const pushed = await pushPendingNotifications(deps);
  return pushed ? { ...written, pushed } : written;
}
