import type { Context } from "hono";
import type { AppEnv } from "../../http/env";
import type { Deps } from "../../ports";

/** Keeps a background task alive past the response (Workers: `executionCtx.waitUntil`). */
export type KeepAlive = ((task: Promise<unknown>) => void) | undefined;

/** Workers give `executionCtx.waitUntil`; Node (and app.request in tests) has none. */
export function keepAliveOf(c: Context<AppEnv>): KeepAlive {
  let ctx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    ctx = undefined;
  }
  return ctx ? (task) => ctx.waitUntil(task) : undefined;
}

/* In-process jobs that have not settled yet. Module-level on purpose: a job outlives the
 * request that started it, and tests (or a graceful shutdown) await them via pendingJobs. */
const inFlight = new Set<Promise<void>>();

/** Resolves once every in-process job started so far with runDetached has settled. */
export async function pendingJobs(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/** Runs `work` detached from the request: a failure is logged under `label`, never unhandled. */
export function runDetached(
  deps: Deps,
  label: string,
  fields: Record<string, unknown>,
  work: () => Promise<unknown>,
  keepAlive: KeepAlive,
): void {
  const task: Promise<void> = work()
    .then(() => undefined)
    .catch((error: unknown) => {
      deps.logger.error(`${label} crashed`, { ...fields, error: String(error) });
    })
    .finally(() => inFlight.delete(task));
  inFlight.add(task);
  keepAlive?.(task);
}
