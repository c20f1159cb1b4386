import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { sweepDueRuns } from "../../src/modules/agent/queries";
import { pendingAgentRuns, sweepAgentPipelines } from "../../src/modules/agent/service";
import { runDiscoveryJob } from "../../src/modules/discovery/jobs";
import { sweepDueJobs } from "../../src/modules/discovery/queries";
import { handBackInstanceWork } from "../../src/modules/inflight/handback";
import { startFakeSearch } from "../fakes/search";
import { addSearchProvider, useFakeAgentProviders } from "../support/ai";
import { call } from "../support/client";
import { createTestContext } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

/**
 * What a stopping instance hands back (ADR 0116), on the test database: its running agent runs
 * and discovery jobs get an expired lease (any instance's sweep takes them at once, not after
 * their lease) and its in-flight keys are freed; another live instance's are left alone.
 */
const ctx = await createTestContext();

async function runningRun(userId: string, instanceId: string) {
  const [row] = await queryRows<{ id: string }>(
    ctx.deps.db,
    sql`insert into agent_pipelines
          (org_id, user_id, status, product, market, max_leads, attempts, lease_until, instance_id,
           started_at)
        select m.org_id, ${userId}, 'running', 'LED panels', 'Germany', 3, 1,
          now() + interval '90 seconds', ${instanceId}, now()
        from org_members m where m.user_id = ${userId}
        returning id`,
  );
  return row!.id;
}

async function keyInFlight(userId: string, key: string, instanceId: string) {
  await queryRows(
    ctx.deps.db,
    sql`insert into idempotency_keys (user_id, key, request_hash, status, instance_id, expires_at)
        values (${userId}, ${key}, 'h', 'in_flight', ${instanceId}, now() + interval '1 day')`,
  );
}

describe("handBackInstanceWork", () => {
  it("expires the leases of its own running runs and frees its own keys, no one else's", async () => {
    const user = await registerBusinessUser(ctx.app, ctx.deps);
    const mine = await runningRun(user.userId, "stopping-1");
    const theirs = await runningRun(user.userId, "busy-2");
    await keyInFlight(user.userId, "mine", "stopping-1");
    await keyInFlight(user.userId, "theirs", "busy-2");

    const stopping = await ctx.makeInstance({}, { INSTANCE_ID: "stopping-1" });
    expect(await handBackInstanceWork(stopping.deps)).toMatchObject({
      refunded: 0,
      keys: 1,
      runs: 1,
    });

    // Another instance's sweep, right now, finds the handed-back run and only that one.
    const swept = await dueNow(sweepDueRuns);
    expect(swept).toContain(mine);
    expect(swept).not.toContain(theirs);

    const keys = await queryRows<{ key: string }>(
      ctx.deps.db,
      sql`select key from idempotency_keys where user_id = ${user.userId} order by key`,
    );
    expect(keys.map((row) => row.key)).toEqual(["theirs"]);
  });

  it("expires the lease of a discovery job running in this process", async () => {
    const search = await startFakeSearch();
    await addSearchProvider(ctx.deps, {
      name: "handback-search",
      kind: "brave",
      baseUrl: search.url,
      apiKey: search.apiKey,
    });
    search.fail("hang");
    const user = await registerBusinessUser(ctx.app, ctx.deps);
    const [job] = await queryRows<{ id: string }>(
      ctx.deps.db,
      sql`insert into discovery_jobs
            (org_id, user_id, product, market, credits_charged, balance_after, progress)
          select m.org_id, ${user.userId}, 'LED panels', 'Germany', 0, 0, '{}'::jsonb
          from org_members m where m.user_id = ${user.userId}
          returning id`,
    );
    const running = runDiscoveryJob(ctx.deps, job!.id);
    try {
      for (let i = 0; search.requests.length === 0; i++) {
        if (i > 1000) throw new Error("the job never searched");
        await new Promise((r) => setTimeout(r, 10));
      }
      // Claimed with a lease of minutes: no sweep would take it now.
      expect(await dueNow(sweepDueJobs)).not.toContain(job!.id);
      expect(await handBackInstanceWork(ctx.deps)).toMatchObject({ jobs: 1 });
      expect(await dueNow(sweepDueJobs)).toContain(job!.id);
    } finally {
      await search.close();
      await running;
    }
  });
});

describe("a run queued by the stopping instance", () => {
  it("is claimed by that instance as it is queued, and another instance takes it right after the stop", async () => {
    // Only this test's search provider answers (the one above is closed), and the runs above
    // are over: the sweep below finds this test's run first.
    await queryRows(ctx.deps.db, sql`update search_providers set enabled = false`);
    await queryRows(
      ctx.deps.db,
      sql`update agent_pipelines set status = 'cancelled', lease_until = null
          where status in ('queued', 'running')`,
    );
    const { llm, search } = await useFakeAgentProviders(ctx.deps, {
      llmKey: "sk-handback-queued",
      search: { name: "handback-queued-search", kind: "brave" },
      tasks: ["discovery_analysis", "followup_draft"],
    });
    search.fail("hang");
    const stopping = await ctx.makeInstance({}, { INSTANCE_ID: "stopping-q" });
    const taking = await ctx.makeInstance({}, { INSTANCE_ID: "taking-q" });
    const user = await registerBusinessUser(ctx.app, ctx.deps);
    const run = async () =>
      (
        await queryRows<{ status: string; instance_id: string | null; attempts: number }>(
          ctx.deps.db,
          sql`select status, instance_id, attempts from agent_pipelines where id = ${id}`,
        )
      )[0]!;

    const started = await call(stopping.app, "/api/v1/agent/start", {
      token: user.accessToken,
      json: { product: "LED panels", market: "Germany", max_leads: 3 },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const id = (started.body as { id: string }).id;
    let sweep: Promise<unknown> | undefined;
    try {
      for (let i = 0; search.requests.length === 0; i++) {
        if (i > 1000) throw new Error("the run never searched");
        await new Promise((r) => setTimeout(r, 10));
      }
      // A queued row names no instance (instance_id is set by the claim), and the instance that
      // queued it claims it at once, in the task the request started: there is no queued run
      // of this instance to hand back, only running ones.
      expect(await run()).toEqual({ status: "running", instance_id: "stopping-q", attempts: 1 });
      // Leased for minutes: no sweep takes it before the stop.
      expect(await dueNow(sweepDueRuns)).not.toContain(id);

      expect(await handBackInstanceWork(stopping.deps)).toMatchObject({ runs: 1 });
      // Right after the stop, the other instance's next sweep (every minute) claims it, with
      // the next fencing token; the stopped one's late writes are refused.
      sweep = sweepAgentPipelines(taking.deps);
      for (let i = 0; (await run()).instance_id !== "taking-q"; i++) {
        if (i > 1000)
          throw new Error(`the sweep never claimed the run: ${JSON.stringify(await run())}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await run()).toEqual({ status: "running", instance_id: "taking-q", attempts: 2 });
    } finally {
      // The hanging searches fail: both workers end (the first one fenced off by the claim).
      await search.close();
      await sweep;
      await pendingAgentRuns();
      await llm.close();
    }
  });
});

/** The ids a sweep run now would take (nothing is run: each is reported as skipped). */
async function dueNow(sweep: typeof sweepDueRuns | typeof sweepDueJobs): Promise<string[]> {
  const due: string[] = [];
  await sweep(ctx.deps.db, {
    now: new Date().toISOString(),
    staleQueued: new Date(0).toISOString(),
    limit: 100,
    redeliver: async (id) => {
      due.push(id);
      return "skipped";
    },
    onError: (_id, error) => {
      throw error;
    },
  });
  return due;
}
