import { type LoadSummary, measureInterleaved } from "./load";
import { freePort, startNode, waitReady } from "./proc";

/**
 * What refusing ended sessions costs (issue: sessions that end when they should). The app runs
 * with SESSION_CHECK=poll (each instance polls session_revocations at most every 500 ms); a
 * second instance of the same app on the same database runs SESSION_CHECK=query (one indexed
 * read of session_revocations per request). Both serve the same write route, PATCH
 * /api/v1/customers/:id, and /me, interleaved.
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
  appUrl: string;
  auth: Record<string, string>;
  customerId: string;
  log: (line: string) => void;
}): Promise<SessionCheckResult> {
  const port = await freePort();
  const since = performance.now();
  const queryApp = startNode(
    "app (SESSION_CHECK=query)",
    options.script,
    { ...options.appEnv, PORT: String(port), SESSION_CHECK: "query", SCHEDULER_ENABLED: "false" },
    port,
  );
  try {
    await waitReady(queryApp, since);
    const queryUrl = `http://127.0.0.1:${port}`;
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
        patch(options.appUrl, "app PATCH /customers/:id (poll)"),
        patch(queryUrl, "app PATCH /customers/:id (query)"),
        me(options.appUrl, "app GET /me (poll)"),
        me(queryUrl, "app GET /me (query)"),
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
    await queryApp.stop();
  }
}
