import { inTimedBatches } from "../../db/batches";
import type { Db } from "../../db/client";
import type { Deps } from "../../ports";
import { type PushCounts, pushPendingNotifications } from "../notifications/push";
import {
  type ReminderBatch,
  type ReminderCursor,
  remindFollowupsBatch,
  remindSilentBatch,
} from "./queries/reminders";

/**
 * Walks every due customer in short timed batches (db/batches.ts): each statement holds the
 * key-share locks of its notifications' users until it commits, and a user changing their
 * email waits on them. The notifications written.
 */
async function walk(
  db: Db,
  batch: (
    db: Db,
    params: { now: string; limit: number; after: ReminderCursor | null },
  ) => Promise<ReminderBatch>,
  now: string,
): Promise<number> {
  let written = 0;
  let after: ReminderCursor | null = null;
  await inTimedBatches(async (limit) => {
    const done = await batch(db, { now, limit, after });
    written += done.written;
    after = done.next;
    return done.next ? done.taken : 0;
  });
  return written;
}

/**
 * The silence and follow-up task, for every user, in batches of due customers (walked in index
 * order, so a batch reads its own rows, not the 1,000,000 customers). A notification
 * names its episode in the dedupe key, so a rerun (or two instances at once) writes nothing new:
 *   - silent:   `customer_silent:<customer id>:<ms of the contact (or creation) it is silent since>`;
 *     a new contact starts a new episode, which notifies again once it too goes silent.
 *   - followup: `followup_due:<customer id>:<ms of the next_followup_at that came due>`.
 * Silent: status not won or lost, and silent past customers.silence_days (system config).
 * Due: next_followup_at has come and the customer is not lost or dormant (they have no cadence).
 * Then pending notifications (these and any other task's) are pushed through WeChat where the
 * user has it (src/modules/notifications/push.ts); `pushed` is absent when pushing is off.
 */
export async function notifyCustomerReminders(
  deps: Deps,
): Promise<{ silent: number; followups_due: number; pushed?: PushCounts }> {
  const now = deps.clock.now().toISOString();
  const written = {
    silent: await walk(deps.db, remindSilentBatch, now),
    followups_due: await walk(deps.db, remindFollowupsBatch, now),
  };
  // After the insert has committed, so a failed push never loses a notification.
  const pushed = await pushPendingNotifications(deps);
  return pushed ? { ...written, pushed } : written;
}
