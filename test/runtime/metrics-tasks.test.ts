import { describe, expect, it } from "vitest";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { createNodeMetrics } from "../../src/runtime/node/metrics";
import { createTestContext } from "../support/harness";

/**
 * Scheduled task runs reach /metrics through the runScheduledTasks wrapper (ADR 0119), on the
 * suite's database: a run that succeeds and one whose database refuses, each by its name and
 * outcome, with the last success's time.
 */
describe("scheduled task metrics", async () => {
  const { deps } = await createTestContext();

  it("counts each run by task and outcome, and when it last succeeded", async () => {
    const metrics = createNodeMetrics();
    const before = Date.now() / 1000;
    const [done] = await runScheduledTasks({ ...deps, metrics }, ["expireOrders"]);
    expect(done?.ok).toBe(true);
    // A database that refuses every statement: the task fails, the wrapper still counts it.
    const refuse = () => {
      throw new Error("database refused");
    };
    const refusing = new Proxy(deps.db, {
      get: (target, key) =>
        key === "execute" || key === "select" || key === "update" || key === "transaction"
          ? refuse
          : // Named statements (db/client.ts queryRowsPrepared) go through the session.
            key === "session"
            ? { prepareQuery: refuse }
            : Reflect.get(target, key),
    });
    const [failed] = await runScheduledTasks({ ...deps, db: refusing, metrics }, ["expireOrders"]);
    expect(failed?.ok).toBe(false);

    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'scheduled_task_duration_seconds_count{task="expireOrders",outcome="ok"} 1',
    );
    expect(text).toContain(
      'scheduled_task_duration_seconds_count{task="expireOrders",outcome="failed"} 1',
    );
    const last = /scheduled_task_last_success_timestamp_seconds\{task="expireOrders"\} (\S+)/.exec(
      text,
    );
    expect(Number(last?.[1])).toBeGreaterThanOrEqual(Math.floor(before));
  });
});
