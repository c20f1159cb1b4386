import { iso } from "../../lib/clock";
import type { Deps } from "../../ports";
import * as queries from "./queries";
import type { NotificationInput } from "./queries/insert";

/** Writes a notification; with a dedupe key, only the first of an episode is stored. */
export function notify(deps: Deps, input: NotificationInput): Promise<{ created: boolean }> {
  return queries.insertNotification(deps.db, { input, now: deps.clock.now().toISOString() });
}

export async function listNotifications(
  deps: Deps,
  query: { userId: string; page: number; size: number; is_read?: boolean },
) {
  const { rows, total, unread } = await queries.listNotifications(deps.db, {
    userId: query.userId,
    page: query.page,
    size: query.size,
    isRead: query.is_read,
  });
  return {
    items: rows.map((r) => ({
      ...r,
      read_at: iso(r.read_at),
      created_at: iso(r.created_at)!,
    })),
    total,
    unread,
    page: query.page,
    size: query.size,
  };
}

/** Marks the caller's own notifications among `ids`; other users' ids are silently skipped. */
export function markNotifications(
  deps: Deps,
  input: { userId: string; ids: string[]; isRead: boolean },
) {
  return queries.markNotifications(deps.db, { ...input, now: deps.clock.now().toISOString() });
}

export async function markAllRead(deps: Deps, userId: string) {
  const updated = await queries.markAllRead(deps.db, {
    userId,
    now: deps.clock.now().toISOString(),
  });
  return { updated, unread: 0 };
}
