import { type LoadSummary, measureInterleaved } from "./load";
import { freePort, startNode, waitReady } from "./proc";

/**
 * What refusing ended sessions costs (issue: sessions that end when they should). One instance
 * runs SESSION_CHECK=poll (it polls session_revocations at most every 500 ms), another the same
 * app on the same database with SESSION_CHECK=query (one indexed read of session_revocations
 * per request). Both serve the same write route, PATCH /api/v1/customers/:id, and /me,
 * interleaved.
 */
export interface SessionCheckResult {
  patchPoll: LoadSummary;
  patchQuery: LoadSummary;
  mePoll: LoadSummary;
  meQuery: LoadSummary;
  /** rps of the per-request check over the polled one: below 1 is what the query costs. */
  patchRatio: number;
  meRatio: number;
}

export async function measureSessionCheck(options: {
  script: string;
  appEnv: NodeJS.ProcessEnv;
  auth: Record<string, string>;
  customerId: string;
  log: (line: string) => void;
}): Promise<SessionCheckResult> {
  // Two fresh instances with the same settings but the check, so neither carries the other
  // runs' warm-up or heap.
  const start = async (mode: "poll" | "query") => {
    const port = await freePort();
    const since = performance.now();
    const child = startNode(
      `app (SESSION_CHECK=${mode})`,
      options.script,
      { ...options.appEnv, PORT: String(port), SESSION_CHECK: mode },
      port,
    );
    await waitReady(child, since);
    return { child, url: `http://127.0.0.1:${port}` };
  };
  const poll = await start("poll");
  const query = await start("query").catch(async (error) => {
    await poll.child.stop();
    throw error;
  });
  try {
    const patch = (base: string, name: string) => ({
      name,
      url: `${base}/api/v1/customers/${options.customerId}`,
      method: "PATCH" as const,
      headers: { ...options.auth, "content-type": "application/json" },
      body: JSON.stringify({ notes: "Asked for the spring catalogue" }),
    });
    const me = (base: string, name: string) => ({
      name,
      url: `${base}/api/v1/auth/me`,
      headers: options.auth,
    });
    const [patchPoll, patchQuery, mePoll, meQuery] = (await measureInterleaved(
      [
        patch(poll.url, "app PATCH /customers/:id (poll)"),
        patch(query.url, "app PATCH /customers/:id (query)"),
        me(poll.url, "app GET /me (poll)"),
        me(query.url, "app GET /me (query)"),
      ],
      options.log,
    )) as [LoadSummary, LoadSummary, LoadSummary, LoadSummary];
    return {
      patchPoll,
      patchQuery,
      mePoll,
      meQuery,
      patchRatio: patchQuery.rps / patchPoll.rps,
      meRatio: meQuery.rps / mePoll.rps,
    };
  } finally {
    await Promise.all([poll.child.stop(), query.child.stop()]);
  }
}
