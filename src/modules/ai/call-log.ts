import type { AiCallOutcome } from "../../db/schema";
import type { Deps } from "../../ports";
import { runDetached } from "../jobs/background";
import { type AiCallRow, insertAiCalls } from "./queries";

/**
 * Every AI call on record (issue #24 item 7, ADR 0114). A feature's provider attempts are noted
 * as they happen (task, provider, model, tokens, latency, outcome) and written together, in one
 * insert started when the task has its answer and not awaited: recording adds no round trip to
 * the request and a failed write is logged, never the user's failure.
 */

/** Who an AI call is for: the calling user and, for a billed operation, its charge. */
export interface AiCaller {
  userId: string;
  /** billed()'s charge: the attempt that answers carries its credits and consumption. */
  charge?: { cost: number; consumptionId: string | null } | undefined;
}

/** One attempt as a feature notes it. */
interface AiAttempt {
  task: string;
  provider: string;
  model: string;
  tokensIn?: number | undefined;
  tokensOut?: number | undefined;
  outcome: AiCallOutcome;
}

/** Charges whose credits an answering attempt already carries: an operation is counted once. */
const credited = new WeakSet<object>();

export interface AiCallLog {
  /**
   * Times one provider call and notes how it ended: `ok` with the tokens `usage` reads from
   * its value, or `timeout` / `error` when it throws (the error is rethrown).
   */
  call<T>(
    attempt: { task: string; provider: string; model: string },
    run: () => Promise<T>,
    usage?: (value: T) => { inputTokens?: number | undefined; outputTokens?: number | undefined },
  ): Promise<T>;
  /** Notes an attempt measured elsewhere (a stream, timed until its end). */
  note(attempt: AiAttempt, latencyMs: number): void;
  /** The last `ok` attempt's answer could not be used: it is `unusable` and carries no credits. */
  unusable(): void;
  /** Writes what was noted, once, off the request's path; never throws. */
  flush(): void;
}

interface Noted extends AiAttempt {
  latencyMs: number;
  at: string;
}

/** `timeout` for an attempt that ran out of time, else `error`. */
export function failureOutcome(error: unknown): AiCallOutcome {
  const reason = (error as { reason?: unknown } | null)?.reason;
  if (reason === "timeout") return "timeout";
  const message = error instanceof Error ? error.message : "";
  const name = error instanceof Error ? error.name : "";
  return name === "TimeoutError" || /failed: timeout\b/.test(message) ? "timeout" : "error";
}

const elapsed = (start: number) => Math.max(0, Math.round(performance.now() - start));

/** A log of one task's attempts for `caller` (none: recorded without a user). */
export function aiCallLog(deps: Deps, caller?: AiCaller): AiCallLog {
  const noted: Noted[] = [];
  let flushed = false;
  const note = (attempt: AiAttempt, latencyMs: number, at: string) => {
    noted.push({ ...attempt, latencyMs, at });
  };
  return {
    async call(attempt, run, usage) {
      const at = deps.clock.now().toISOString();
      const start = performance.now();
      let value: Awaited<ReturnType<typeof run>>;
      try {
        value = await run();
      } catch (error) {
        note({ ...attempt, outcome: failureOutcome(error) }, elapsed(start), at);
        throw error;
      }
      const tokens = usage?.(value) ?? {};
      note(
        {
          ...attempt,
          outcome: "ok",
          tokensIn: tokens.inputTokens,
          tokensOut: tokens.outputTokens,
        },
        elapsed(start),
        at,
      );
      return value;
    },
    note(attempt, latencyMs) {
      note(attempt, latencyMs, deps.clock.now().toISOString());
    },
    unusable() {
      const last = noted.findLast((a) => a.outcome === "ok");
      if (last) last.outcome = "unusable";
    },
    flush() {
      if (flushed || noted.length === 0) return;
      flushed = true;
      // Counted with the outcome recorded (an `ok` may have turned `unusable` since).
      for (const a of noted) deps.metrics.providerCall(a.provider, a.task, a.outcome);
      const rows = rowsOf(noted, caller);
      // Not awaited, and no keep-alive: the insert runs while the request finishes its own
      // statements; a failed insert is logged by runDetached.
      runDetached(
        deps,
        "ai call record",
        { calls: rows.length },
        () => insertAiCalls(deps.db, rows),
        undefined,
      );
    },
  };
}

/**
 * The rows of the attempts: the first `ok` attempt of a billed operation carries its credits
 * (once per charge, whichever task of the operation answered first); every attempt of it
 * carries the consumption.
 */
function rowsOf(noted: Noted[], caller: AiCaller | undefined): AiCallRow[] {
  const charge = caller?.charge;
  return noted.map((a) => {
    let credits = 0;
    if (charge && a.outcome === "ok" && !credited.has(charge)) {
      credited.add(charge);
      credits = charge.cost;
    }
    return {
      user_id: caller?.userId ?? null,
      task: a.task,
      provider: a.provider,
      model: a.model,
      tokens_in: a.tokensIn ?? null,
      tokens_out: a.tokensOut ?? null,
      latency_ms: a.latencyMs,
      outcome: a.outcome,
      credits,
      consumption_id: charge?.consumptionId ?? null,
      created_at: a.at,
    };
  });
}
