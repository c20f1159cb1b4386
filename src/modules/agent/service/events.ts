import { iso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import { findRunView, type RunViewRow } from "../queries";

type PipelineStatus = RunViewRow["status"];

/**
 * The event stream of one agent run (GET /agent/:id/events). Edge-safe: no pub/sub, the stream
 * re-reads the run's row (primary key, without the leads) every POLL_MS and sends what changed,
 * so it works the same on Node and on Workers whichever instance runs the pipeline.
 */

const POLL_MS = 500;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** The stream closes after this long (a client reconnects and gets the current state first). */
const MAX_STREAM_MS = 10 * 60_000;

const ENDED: readonly PipelineStatus[] = ["succeeded", "failed", "cancelled", "budget_exhausted"];

interface StageView {
  name: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  detail: Record<string, unknown> | null;
}

export interface RunView {
  id: string;
  status: PipelineStatus;
  error: string | null;
  stages: StageView[];
  summary: Record<string, unknown> | null;
  finished_at: string | null;
}

/** jsonb as the driver hands it over: parsed, or (some drivers) as text. */
const parsedJson = <T>(value: unknown): T =>
  (typeof value === "string" ? JSON.parse(value) : value) as T;

/** The run as the stream sees it; null when it is not the caller's (or no longer exists). */
export async function readRunView(deps: Deps, userId: string, id: string): Promise<RunView | null> {
  const row = await findRunView(deps.db, { userId, id });
  if (!row) return null;
  const summary =
    row.summary === null ? null : parsedJson<Record<string, unknown> | null>(row.summary);
  return {
    id: row.id,
    status: row.status,
    error: row.error,
    stages: row.stages === null ? [] : (parsedJson<StageView[] | null>(row.stages) ?? []),
    summary: summary ?? null,
    finished_at: iso(row.finished_at),
  };
}

interface RunEvent {
  event: "state" | "status" | "stage" | "end";
  data: unknown;
}

/**
 * What happened between two reads of a run: a `status` event when the run's status changed, a
 * `stage` event for each stage that is new or whose status changed (in stage order), and `end`
 * once the run has ended.
 */
function runEvents(before: RunView, after: RunView): RunEvent[] {
  const events: RunEvent[] = [];
  if (after.status !== before.status) {
    events.push({ event: "status", data: { status: after.status } });
  }
  after.stages.forEach((stage, index) => {
    const was = before.stages[index];
    if (!was || was.name !== stage.name || was.status !== stage.status) {
      events.push({ event: "stage", data: stage });
    }
  });
  if (ENDED.includes(after.status)) events.push({ event: "end", data: endOf(after) });
  return events;
}

const endOf = (run: RunView) => ({
  status: run.status,
  error: run.error,
  summary: run.summary,
  finished_at: run.finished_at,
});

export interface EventSink {
  send(event: RunEvent): Promise<void>;
  comment(text: string): Promise<void>;
  sleep(ms: number): Promise<unknown>;
  readonly closed: boolean;
}

/**
 * Sends the current state first, then the changes as they happen, until the run ends (an `end`
 * event, then the stream closes), the client goes away, its session ends (the sink reads as
 * closed: src/http/live-stream.ts), or MAX_STREAM_MS passes.
 */
export async function streamRunEvents(
  deps: Deps,
  userId: string,
  first: RunView,
  sink: EventSink,
  options: { pollMs?: number; maxMs?: number } = {},
): Promise<void> {
  const pollMs = options.pollMs ?? POLL_MS;
  const started = Date.now();
  let lastWrite = started;
  await sink.send({ event: "state", data: first });
  if (ENDED.includes(first.status)) {
    await sink.send({ event: "end", data: endOf(first) });
    return;
  }
  let seen = first;
  while (!sink.closed && Date.now() - started < (options.maxMs ?? MAX_STREAM_MS)) {
    await sink.sleep(pollMs);
    if (sink.closed) return;
    const now = await readRunView(deps, userId, first.id);
    if (!now) return;
    for (const event of runEvents(seen, now)) {
      await sink.send(event);
      lastWrite = Date.now();
    }
    if (ENDED.includes(now.status)) return;
    seen = now;
    if (Date.now() - lastWrite >= KEEPALIVE_MS) {
      await sink.comment("keep-alive");
      lastWrite = Date.now();
    }
  }
}
