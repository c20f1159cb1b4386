import type { Deps } from "../../ports";
import { isSessionRevoked, pollRevocations, purgeRevocations } from "./queries";

/**
 * Which sessions have ended, as this instance knows it.
 *
 * Access tokens are stateless JWTs; a session that ends (logout, password change or reset,
 * refresh-token reuse, a disabled or deleted account) is recorded in `session_revocations` by
 * triggers (migration 0013). Rather than read that table on every request (a second round trip
 * on every simple authenticated request), each instance keeps the set of sessions ended within
 * the access-token lifetime and refreshes it incrementally at most every `pollMs`: a request
 * that finds the set older than that waits for one refresh, shared by every request in flight.
 * So an ended session is refused everywhere within `pollMs` plus one query, the database sees
 * one small query per instance per interval whatever the traffic, and the per-request cost is
 * a Map lookup. Design and measurements: docs/adr/0052-session-revocation-reach.md.
 *
 * `SESSION_CHECK=query` instead reads the table on every request (one indexed primary-key
 * read); the bench measures both.
 */

/**
 * Revocations stamped this long before the previous poll's start are fetched again: a statement
 * commits after its trigger stamps the row (deleting a large account cascades for a while).
 */
const OVERLAP_SECONDS = 120;

interface RevocationState {
  /** Session id -> local time after which its tokens have expired anyway. */
  ended: Map<string, number>;
  /** Database time of the last poll: the next one fetches from there (minus the overlap). */
  since: string | null;
  /** Local time the last successful poll started. */
  freshAt: number;
  inflight: Promise<void> | null;
}

// Keyed by the deps object: one set per app instance, as two processes would have.
const states = new WeakMap<object, RevocationState>();

function stateOf(deps: Deps): RevocationState {
  let state = states.get(deps);
  if (!state) {
    state = { ended: new Map(), since: null, freshAt: Number.NEGATIVE_INFINITY, inflight: null };
    states.set(deps, state);
  }
  return state;
}

const tokenLifetimeMs = (deps: Deps) => deps.config.ACCESS_TOKEN_TTL_SECONDS * 1000 + 60_000;

async function poll(deps: Deps, state: RevocationState): Promise<void> {
  const startedAt = Date.now();
  const ttl = deps.config.ACCESS_TOKEN_TTL_SECONDS + 60;
  const row = await pollRevocations(deps.db, {
    since: state.since,
    overlapSeconds: OVERLAP_SECONDS,
    ttlSeconds: ttl,
  });
  const expiresAt = startedAt + tokenLifetimeMs(deps);
  for (const id of row?.ended ?? []) if (!state.ended.has(id)) state.ended.set(id, expiresAt);
  for (const [id, until] of state.ended) if (until <= startedAt) state.ended.delete(id);
  state.since = row ? new Date(row.db_now).toISOString() : state.since;
  state.freshAt = startedAt;
}

/**
 * Whether the session behind an access token has ended (see above). A plain boolean while the
 * set is fresh (nearly every request: no promise to wait for), a promise when it must poll.
 */
export function isSessionEnded(deps: Deps, sessionId: string): boolean | Promise<boolean> {
  if (deps.config.SESSION_CHECK === "query") return endedInDatabase(deps, sessionId);
  const state = stateOf(deps);
  if (Date.now() - state.freshAt < deps.config.SESSION_REVOCATION_POLL_MS) {
    return state.ended.has(sessionId);
  }
  state.inflight ??= poll(deps, state).finally(() => {
    state.inflight = null;
  });
  return state.inflight.then(() => state.ended.has(sessionId));
}

function endedInDatabase(deps: Deps, sessionId: string): Promise<boolean> {
  return isSessionRevoked(deps.db, { sessionId });
}

/**
 * A session this instance ended itself (logout) is refused here at once, without waiting for
 * the next poll; other instances learn of it from the table.
 */
export function noteSessionEnded(deps: Deps, sessionId: string): void {
  stateOf(deps).ended.set(sessionId, Date.now() + tokenLifetimeMs(deps));
}

/** Rows older than any access token that could carry their session; for the purge task. */
export function purgeSessionRevocations(deps: Deps): Promise<number> {
  return purgeRevocations(deps.db, {
    olderThanSeconds: deps.config.ACCESS_TOKEN_TTL_SECONDS + 3600,
  });
}
