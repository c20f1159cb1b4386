import { measureSessionCheck, type SessionCheckResult } from "../session-check";
import type { BenchContext } from "../setup";

/** What refusing ended sessions costs on a write route: polled set vs a read per request. */
export async function measureSessionChecks(ctx: BenchContext): Promise<SessionCheckResult> {
  ctx.log(`\nsession check: an instance with SESSION_CHECK=poll vs one with SESSION_CHECK=query`);
  return measureSessionCheck({
    script: ctx.settings.appScript,
    appEnv: ctx.app.env,
    auth: ctx.auth,
    customerId: ctx.list.customerId,
    log: ctx.log,
  });
}
