import type { Deps } from "../../deps";
import { type PushCounts, pushPendingNotifications } from "../notifications/push";
import { insertCustomerReminders } from "./queries/reminders";

/**
 * The silence and follow-up task, for every user in one statement each way. A notification
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
  const written = await insertCustomerReminders(deps.db, {
    now: deps.clock.now().toISOString(),
  });
  // After the insert has committed, so a failed push never loses a notification.
  const pushed = await pushPendingNotifications(deps);
  return pushed ? { ...written, pushed } : written;
}
