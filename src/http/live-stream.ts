import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import type { Deps } from "../ports";
import { ACCESS_COOKIE } from "./cookies";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

/**
 * The rules of every long-lived response (an event stream), in one place
 * (docs/adr/0088-streams-end-with-their-session.md):
 *
 * - *It ends with its session.* requireAuth checks the access token and its session once, when
 *   the request arrives; a stream outlives that check by minutes. So while it is open the
 *   stream asks the same two questions again every SESSION_REVOCATION_POLL_MS: is the token
 *   still valid (deps.sessions.verifyAccessToken: it expires) and has its session ended
 *   (deps.sessions.isSessionEnded: logout, logout-all, a password change or reset, a disabled or
 *   deleted account). Both are what requireAuth asks, at the cost requireAuth pays (a cached
 *   verification and a Map lookup; the ended-session set refreshes at most every poll interval,
 *   once per instance). When either says no, the stream's `signal` aborts, its owner writes a
 *   last word and returns, and the response closes.
 * - *A user holds at most STREAMS_PER_USER of them at once* (per instance: the count is kept in
 *   memory, like the ended-session set). One more is refused with 429 before anything is
 *   charged or written. A stream gives its slot back when it ends for any reason, the client
 *   leaving included.
 * - *A stream that opts in (`endsAtStop`) ends when its server stops* (ADR 0116): the runtime
 *   calls endLiveStreams as it starts draining, the stream's `signal` aborts with
 *   "server_stopping", and its owner writes lastWord: a `reconnect` event with an SSE `retry:`
 *   so the client's EventSource comes back (to another instance: this one no longer listens)
 *   after that delay. Only streams that lose nothing by reconnecting opt in (agent run events:
 *   each connection begins with the run's whole state); a streamed chat turn does not, it
 *   finishes within the drain instead.
 */

/** Why a stream's signal aborted; the owner may tell the client before it closes. */
export type StreamEnd = "session_ended" | "token_expired" | "server_stopping";

export const STREAM_END_DETAIL: Record<StreamEnd, string> = {
  session_ended: "This session has ended",
  token_expired: "The access token has expired; refresh it and reconnect",
  server_stopping: "This server is restarting; reconnect",
};

/**
 * The `retry:` (ms) of a stream ended by a stop: EventSource waits this long before it
 * reconnects. Long enough that the client sends nothing on the connection the server is
 * closing, short enough that following a run hardly pauses.
 */
const STOP_RETRY_MS = 1_000;

/** After the session ends, a stream whose owner is stuck (a client not reading) is cut off. */
const FORCE_CLOSE_MS = 1_000;
/** What a refused stream's client is told to wait, in seconds: streams end within minutes. */
const RETRY_AFTER_SECONDS = 30;

export interface LiveStream {
  /** Aborts when the stream's session ends or its access token expires (reason: StreamEnd). */
  readonly signal: AbortSignal;
  /** Why `signal` aborted, or null while the session holds. */
  readonly end: StreamEnd | null;
  /** Waits `ms`, or less when the session ends first. */
  sleep(ms: number): Promise<void>;
  /** The iterator's next value, or `null` as soon as the session ends (the value is dropped). */
  next<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T> | null>;
  /** Stops watching and gives the slot back; safe to call more than once. */
  release(): void;
}

// Open streams per user, per app instance (keyed by deps, as two processes would have).
const openStreams = new WeakMap<Deps, Map<string, number>>();
// Per app instance: the ends of the open streams that opted in to end at a stop, and whether
// the stop has begun (a stream opened after it, on a kept-alive connection, ends at once).
const stopHooks = new WeakMap<Deps, Set<() => void>>();
const stopped = new WeakSet<Deps>();

/**
 * Called by the runtime as the server starts draining (Node: runtime/node/server.ts): every
 * open stream that opted in (`endsAtStop`) ends with its lastWord, and so does any opened from
 * now on. Returns how many were open. Edge-safe; a Worker never calls it (it does not stop).
 */
export function endLiveStreams(deps: Deps): number {
  stopped.add(deps);
  const hooks = [...(stopHooks.get(deps) ?? [])];
  for (const end of hooks) end();
  return hooks.length;
}

function countsOf(deps: Deps) {
  let counts = openStreams.get(deps);
  if (!counts) {
    counts = new Map();
    openStreams.set(deps, counts);
  }
  return counts;
}

/** The access token requireAuth accepted for this request (it reads the same two places). */
function accessTokenOf(c: Context<AppEnv>): string | undefined {
  if (c.get("auth").via === "cookie") return getCookie(c, ACCESS_COOKIE);
  const [scheme, token] = (c.req.header("Authorization") ?? "").split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token.trim() : undefined;
}

/** Whether the stream may go on: the token still verifies and its session has not ended. */
async function standing(deps: Deps, token: string, sessionId: string): Promise<StreamEnd | null> {
  if (!(await deps.sessions.verifyAccessToken(deps, token))) return "token_expired";
  return (await deps.sessions.isSessionEnded(deps, sessionId)) ? "session_ended" : null;
}

/**
 * Takes one of the caller's stream slots (429 with Retry-After when all are in use) and starts
 * watching its session. Call it after every check that answers JSON (404, 402, ...) would
 * otherwise leave the slot taken, or release it on those paths; liveSSE releases it when the
 * stream ends.
 */
export function openLiveStream(
  c: Context<AppEnv>,
  options: { endsAtStop?: boolean } = {},
): LiveStream {
  const deps = c.get("deps");
  const { userId, sessionId } = c.get("auth");
  const counts = countsOf(deps);
  const held = counts.get(userId) ?? 0;
  if (held >= deps.config.STREAMS_PER_USER) {
    throw new ApiError(
      429,
      `Too many open event streams: at most ${deps.config.STREAMS_PER_USER} per user; close one or retry later`,
      { headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
    );
  }
  counts.set(userId, held + 1);

  const controller = new AbortController();
  const token = accessTokenOf(c);
  let end: StreamEnd | null = token ? null : "token_expired";
  let released = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (why: StreamEnd) => {
    end ??= why;
    controller.abort(end);
  };
  const watch = () => {
    timer = setTimeout(async () => {
      try {
        const why = await standing(deps, token!, sessionId);
        if (released) return;
        if (why) stop(why);
        else watch();
      } catch {
        // The ended-session set could not be refreshed (database down): keep the stream and
        // ask again, as requireAuth would refuse the next request instead.
        if (!released) watch();
      }
    }, deps.config.SESSION_REVOCATION_POLL_MS);
  };
  if (end) controller.abort(end);
  else watch();
  const atStop = () => {
    clearTimeout(timer);
    stop("server_stopping");
  };
  const hooks = stopHooks.get(deps) ?? new Set<() => void>();
  if (options.endsAtStop) {
    stopHooks.set(deps, hooks);
    if (stopped.has(deps)) atStop();
    else hooks.add(atStop);
  }

  const signal = controller.signal;
  const aborted = new Promise<null>((resolve) => {
    if (signal.aborted) resolve(null);
    else signal.addEventListener("abort", () => resolve(null), { once: true });
  });
  return {
    signal,
    get end() {
      return end;
    },
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          clearTimeout(wake);
          signal.removeEventListener("abort", done);
          resolve();
        };
        const wake = setTimeout(done, ms);
        signal.addEventListener("abort", done, { once: true });
      }),
    next: <T>(iterator: AsyncIterator<T>) => {
      const pending = iterator.next();
      // Whatever the iterator does after the stream has given up on it is its own business.
      pending.catch(() => undefined);
      return Promise.race([pending, aborted]);
    },
    release: () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      hooks.delete(atStop);
      const left = (counts.get(userId) ?? 1) - 1;
      if (left > 0) counts.set(userId, left);
      else counts.delete(userId);
    },
  };
}

/**
 * streamSSE under the live-stream rules: the slot is given back when `run` returns, throws or
 * the client goes away; once the session ends, a `run` that has not returned within
 * FORCE_CLOSE_MS (stuck writing to a client that does not read) has its stream cut.
 */
export function liveSSE(
  c: Context<AppEnv>,
  live: LiveStream,
  run: (stream: SSEStreamingApi) => Promise<void>,
): Response {
  return streamSSE(c, async (stream) => {
    let cut: ReturnType<typeof setTimeout> | undefined;
    const onEnd = () => {
      cut = setTimeout(() => stream.abort(), FORCE_CLOSE_MS);
    };
    stream.onAbort(() => live.release());
    live.signal.addEventListener("abort", onEnd, { once: true });
    try {
      await run(stream);
    } finally {
      live.signal.removeEventListener("abort", onEnd);
      clearTimeout(cut);
      live.release();
    }
  });
}

/**
 * The last event of a stream whose `signal` aborted: `error` {detail} when its session ended
 * (reconnecting needs a fresh token or a new login), `reconnect` {detail} with `retry:`
 * STOP_RETRY_MS when its server is stopping. Nothing when the client has gone.
 */
export async function lastWord(stream: SSEStreamingApi, live: LiveStream): Promise<void> {
  if (!live.end || stream.aborted || stream.closed) return;
  const data = JSON.stringify({ detail: STREAM_END_DETAIL[live.end] });
  if (live.end === "server_stopping") {
    await stream.writeSSE({ event: "reconnect", data, retry: STOP_RETRY_MS });
  } else {
    await stream.writeSSE({ event: "error", data });
  }
}
