import { sql } from "drizzle-orm";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import {
  truncateThing,
  WechatPushError,
  type WechatTemplateMessage,
  type WechatTemplateSender,
  wechatTime,
} from "../../providers/messaging/wechat";
import { type ClaimedRow, claimPushBatch, settlePush, skipUnpushable } from "./queries";

/**
 * Pushes stored notifications to their users through WeChat (Official Account template
 * messages). Runs after the reminders task writes its notifications, and picks up every other
 * pending notification too (plan ends, referrals...), oldest first.
 *
 * Template (WECHAT_TEMPLATE_ID) fields:
 *   - thing1: the notification title (at most 20 characters, cut with "…")
 *   - thing2: the customer's name when the notification is about one (a reminder digest: its most
 *     overdue customer), else the body (cut alike)
 *   - time3:  when the notification was written, Asia/Shanghai, "YYYY-MM-DD HH:mm"
 *
 * push_state: pending -> sending (claimed until push_claimed_until) -> sent | pending again
 * (transient error, retried by the next run) | failed (the recipient cannot receive it, or
 * PUSH_MAX_ATTEMPTS used up) | skipped (no channel: no wechat_openid, a disabled account, or
 * older than PUSH_MAX_AGE_HOURS).
 *
 * Claims are one statement with `for update skip locked`, so two runs at once never claim the
 * same row, and a claim is a lease: a run that dies mid-batch leaves rows in `sending` that the
 * next run after PUSH_LEASE_MS takes over. Each outcome is written right after its send and only
 * if the row still carries this claim's attempt number (a fence against a run that outlived its
 * lease). WeChat has no idempotency key, so delivery is at least once: a crash between the send
 * and that write sends the message again after the lease.
 *
 * Pushing off (no WECHAT_TEMPLATE_ID or app credentials): nothing is sent and new notifications
 * stay pending, so a short misconfiguration loses nothing; but every run marks the ones older
 * than PUSH_MAX_AGE_HOURS skipped, so turning pushing on later does not flood users with old
 * reminders and the pending index stays small.
 */

/** Sends of one notification before it is failed (a claim counts as one). */
export const PUSH_MAX_ATTEMPTS = 5;
/**
 * How long a claim holds a row. Longer than a whole batch can take (100 rows, 5 at a time, each
 * up to two sends and a token request of 5 s), so a live run is never overtaken.
 */
export const PUSH_LEASE_MS = 10 * 60_000;
/** Notifications older than this are not pushed any more (stale: skipped). */
const PUSH_MAX_AGE_HOURS = 24;
/** Template sends in flight at once. */
const PUSH_CONCURRENCY = 5;

export interface PushCounts {
  sent: number;
  /** Failed for good in this run (recipient refuses, or attempts used up). */
  failed: number;
  /** Marked skipped in this run (no channel, disabled account, stale). */
  skipped: number;
  /** Left pending for the next run after a transient error. */
  retry: number;
}

/**
 * The customer a notification is about: its own `customer_name`, or a reminder digest's most
 * overdue one (`most_urgent[0]`, ADR 0091).
 */
function customerOf(data: ClaimedRow["data"]): unknown {
  if (data?.customer_name !== undefined) return data.customer_name;
  const urgent = data?.most_urgent;
  const first = Array.isArray(urgent) ? (urgent[0] as Record<string, unknown> | undefined) : null;
  return first?.customer_name;
}

/** The template fields of a notification (see the module comment). */
function templateData(row: Pick<ClaimedRow, "title" | "body" | "data" | "created_at">) {
  const customer = customerOf(row.data);
  const second = typeof customer === "string" && customer.trim() ? customer : row.body;
  return {
    thing1: truncateThing(row.title) || "-",
    thing2: truncateThing(second) || "-",
    time3: wechatTime(row.created_at),
  };
}

/**
 * One run: skip what cannot be pushed, claim a batch, send it and record each outcome.
 * Returns null when pushing is off (after marking stale notifications skipped).
 */
export async function pushPendingNotifications(deps: Deps): Promise<PushCounts | null> {
  const sender = deps.wechatPush;
  const now = nowIso(deps);
  const at = sql`${now}::timestamptz`;
  const staleBefore = sql`${at} - make_interval(hours => ${PUSH_MAX_AGE_HOURS})`;

  // Off: only the stale ones; on: also every one whose user has no channel.
  const skipped = await skipUnpushable(deps.db, { at, staleBefore, channelCheck: sender !== null });
  const counts: PushCounts = { sent: 0, failed: 0, skipped, retry: 0 };
  if (!sender) {
    if (counts.skipped > 0)
      deps.logger.debug("push off: stale notifications skipped", { skipped: counts.skipped });
    return null;
  }

  const leaseUntil = new Date(deps.clock.now().getTime() + PUSH_LEASE_MS).toISOString();
  const claimed = await claimPushBatch(deps.db, {
    at,
    staleBefore,
    leaseUntil,
    limit: deps.config.WECHAT_PUSH_BATCH,
  });

  // Once no access token can be had, the rest of the batch is not tried this run.
  let tokenDown = false;
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const row = claimed[next++]!;
      if (tokenDown) {
        await settle(deps, row, {
          state: "pending",
          error: "not tried: no access token",
          refund: 1,
        });
        counts.retry++;
        continue;
      }
      const outcome = await deliver(sender, row);
      if (outcome.tokenDown) tokenDown = true;
      await settle(deps, row, outcome);
      if (outcome.state === "sent") counts.sent++;
      else if (outcome.state === "failed") counts.failed++;
      else counts.retry++;
    }
  };
  // allSettled: a worker that fails (database) must not leave the others running unobserved.
  const done = await Promise.allSettled(
    Array.from({ length: Math.min(PUSH_CONCURRENCY, claimed.length) }, worker),
  );
  const failure = done.find((d): d is PromiseRejectedResult => d.status === "rejected");
  if (failure) throw failure.reason; // unsettled rows go back after the lease
  return counts;
}

interface Outcome {
  state: "sent" | "pending" | "failed";
  error?: string;
  /** 1: the attempt is given back (it never reached WeChat's send). */
  refund?: number;
  tokenDown?: boolean;
}

async function deliver(sender: WechatTemplateSender, row: ClaimedRow): Promise<Outcome> {
  const message: WechatTemplateMessage = { openid: row.openid, data: templateData(row) };
  try {
    await sender.send(message);
    return { state: "sent" };
  } catch (err) {
    const error = err instanceof WechatPushError ? err.message : "WeChat push failed: internal";
    if (err instanceof WechatPushError && err.permanent) return { state: "failed", error };
    // No token: not this notification's fault, so the attempt does not count against it.
    if (err instanceof WechatPushError && err.stage === "token") {
      return { state: "pending", error, refund: 1, tokenDown: true };
    }
    return { state: row.attempts >= PUSH_MAX_ATTEMPTS ? "failed" : "pending", error };
  }
}

/** Records an outcome, only if the row still holds this claim (state and attempt number). */
async function settle(deps: Deps, row: ClaimedRow, outcome: Outcome): Promise<void> {
  const pushedAt = outcome.state === "sent" ? nowIso(deps) : null;
  await settlePush(deps.db, {
    id: row.id,
    attempts: row.attempts,
    state: outcome.state,
    pushedAt,
    error: outcome.error ?? null,
    refund: outcome.refund ?? 0,
  });
  if (outcome.state === "failed") {
    deps.logger.warn("notification push failed", {
      notification: row.id,
      attempts: row.attempts,
      error: outcome.error,
    });
  }
}
