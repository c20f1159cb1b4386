import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { getBalance } from "../../src/modules/credits/service";
import {
  createWorkInFlight,
  HOLD_STALE_MS,
  KEY_LEASE_MS,
} from "../../src/modules/inflight/heartbeat";
import { recoverInstanceWork } from "../../src/modules/inflight/recovery";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { dyingDatabase } from "../support/dying-database";
import { createTestContext, onPostgres } from "../support/harness";

/**
 * Crash-safe billing (issue #10 item 8). A crash is simulated faithfully in-process: instance A
 * runs on a database handle that stops working at once ("killed"), so the charge it made stays
 * held, its key stays in flight and nothing of its own recovery runs, exactly what kill -9 between
 * charge and answer leaves behind (test/e2e/crash-billing.test.ts kills a real server process).
 */

let now = new Date();
const clock = { now: () => now };
const tick = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
const ctx = await createTestContext({ runtime: { clock } });
const { app, deps } = ctx;
let llm: FakeOpenAi;
let cost: number;

beforeAll(async () => {
  llm = await startFakeOpenAi("sk-crash");
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "crash-llm",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["m1"],
    timeoutMs: 1500,
  });
  await setAiRouting(deps, "translate", ["crash-llm"]);
  const [row] = await queryRows<{ cost: number }>(
    deps.db,
    sql`select (value ->> 'translate')::int as cost from system_config where key = 'credits.costs'`,
  );
  cost = row!.cost;
});
afterAll(() => llm.close());
beforeEach(() => {
  now = new Date();
  llm.fail(null);
  llm.reply((messages) => `translated: ${messages.at(-1)?.content.slice(-12)}`);
});

let seq = 0;
const translate = (target: { request: typeof app.request }, user: Session, key?: string) =>
  call(target as typeof app, "/api/v1/translate", {
    token: user.accessToken,
    // A retry sends the same body as the attempt it retries.
    json: { text: `Bonjour ${key ?? ++seq} ${user.userId.slice(0, 8)}`, target_lang: "zh" },
    ...(key ? { headers: { "Idempotency-Key": key } } : {}),
  });
const balance = async (user: Session) => (await getBalance(deps, user.userId)).balance;
const ledger = (user: Session) =>
  queryRows<{ kind: string; delta: number; operation: string | null; note: string | null }>(
    deps.db,
    sql`select kind, delta, operation, note from credit_ledger
        where user_id = ${user.userId} and kind in ('consumption', 'refund')
        order by kind, note nulls first`,
  );
const holds = (user: Session) =>
  queryRows<{ instance_id: string; idempotency_key: string | null }>(
    deps.db,
    sql`select instance_id, idempotency_key from credit_holds where user_id = ${user.userId}`,
  );

async function waitFor(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Instance A takes a translate request (with `key`), charges it, reaches the provider, and is
 * killed before it answers. Returns the request (it ends when the hung provider times out; A
 * can no longer write anything then) and what A left behind.
 */
async function killedBetweenChargeAndAnswer(user: Session, key: string, instanceId: string) {
  const dying = dyingDatabase(ctx.database);
  const a = await ctx.makeInstance({ database: dying.database }, { INSTANCE_ID: instanceId });
  llm.fail("hang");
  const asked = llm.requests.length;
  const request = translate(a.app, user, key);
  await waitFor(() => llm.requests.length > asked, "the provider to be asked");
  dying.kill();
  a.deps.work.stop();
  llm.fail(null);
  return { request };
}

describe("a billed request killed between its charge and its answer", () => {
  it("leaves a hold of its instance, and its key answers 409 while its lease runs", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const { request } = await killedBetweenChargeAndAnswer(user, "k-held", "inst-held");
    expect(await balance(user)).toBe(before - cost);
    expect(await holds(user)).toEqual([{ instance_id: "inst-held", idempotency_key: "k-held" }]);

    const retry = await translate(app, user, "k-held");
    expect(retry.status).toBe(409);
    expect(retry.res.headers.get("retry-after")).toBe("1");
    expect(await balance(user)).toBe(before - cost);
    await request;
    // The killed instance could not refund after its provider timed out: still held.
    expect(await holds(user)).toHaveLength(1);
  });

  it("is refunded at once when its instance restarts, and the same key then runs and charges once", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const { request } = await killedBetweenChargeAndAnswer(user, "k-restart", "inst-restart");
    await request;

    const restarted = await ctx.makeInstance({}, { INSTANCE_ID: "inst-restart" });
    const recovered = await recoverInstanceWork(restarted.deps);
    expect(recovered).toMatchObject({ refunded: 1, keys: 1 });
    expect(await balance(user)).toBe(before);
    expect(await holds(user)).toEqual([]);
    expect(await ledger(user)).toEqual([
      { kind: "consumption", delta: -cost, operation: "translate", note: null },
      {
        kind: "refund",
        delta: cost,
        operation: "translate",
        note: expect.stringMatching(/interrupted/),
      },
    ]);

    const retry = await translate(restarted.app, user, "k-restart");
    expect(retry.status).toBe(200);
    expect(await balance(user)).toBe(before - cost);
    const replay = await translate(app, user, "k-restart");
    expect(replay.status).toBe(200);
    expect(replay.res.headers.get("idempotent-replayed")).toBe("true");
    expect(await balance(user)).toBe(before - cost);
    expect(await holds(user)).toEqual([]);

    // A second start-up recovery finds nothing left: the refund happened once.
    expect(await recoverInstanceWork(restarted.deps)).toMatchObject({ refunded: 0, keys: 0 });
    expect((await ledger(user)).filter((row) => row.kind === "refund")).toHaveLength(1);
  });

  it("lets another instance take the key over once its lease lapsed, refunding the orphaned charge in that claim", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const { request } = await killedBetweenChargeAndAnswer(user, "k-lease", "inst-lease");
    await request;

    tick(KEY_LEASE_MS - 1000);
    expect((await translate(app, user, "k-lease")).status).toBe(409);
    tick(2000);
    const retry = await translate(app, user, "k-lease");
    expect(retry.status).toBe(200);
    // Charged for the retry only: the dead attempt's charge went back in the same statement.
    expect(await balance(user)).toBe(before - cost);
    expect((await ledger(user)).map((row) => row.kind)).toEqual([
      "consumption",
      "consumption",
      "refund",
    ]);
    expect(await holds(user)).toEqual([]);
  });

  it("is refunded by the every-minute sweep once its heartbeat has been silent for a minute, once", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const { request } = await killedBetweenChargeAndAnswer(user, "k-sweep", "inst-sweep");
    await request;

    tick(HOLD_STALE_MS - 1000);
    await runScheduledTasks(deps, ["refundStaleHolds"]);
    expect(await balance(user)).toBe(before - cost);
    tick(2000);
    const [outcome] = await runScheduledTasks(deps, ["refundStaleHolds"]);
    expect(outcome).toMatchObject({ ok: true });
    expect((outcome!.result as { refunded: number }).refunded).toBeGreaterThanOrEqual(1);
    expect(await balance(user)).toBe(before);
    await runScheduledTasks(deps, ["refundStaleHolds"]);
    expect(await balance(user)).toBe(before);
    expect((await ledger(user)).filter((row) => row.kind === "refund")).toHaveLength(1);
  });
});

describe("a billed request still running", () => {
  it("keeps its hold and its key alive with the heartbeat, and is refunded once, by its own failure", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const live = await ctx.makeInstance({}, { INSTANCE_ID: "inst-live" });
    llm.fail("hang");
    const asked = llm.requests.length;
    const request = translate(live.app, user, "k-live");
    await waitFor(() => llm.requests.length > asked, "the provider to be asked");

    // Minutes pass on the clock; the instance renews its work as its timer would.
    for (let i = 0; i < 4; i++) {
      tick(HOLD_STALE_MS / 2);
      await live.deps.work.beat();
    }
    await runScheduledTasks(deps, ["refundStaleHolds"]);
    expect(await balance(user)).toBe(before - cost);
    expect((await translate(app, user, "k-live")).status).toBe(409);

    // The provider times out: the instance itself refunds, and frees the key.
    const res = await request;
    expect(res.status).toBe(503);
    expect(await balance(user)).toBe(before);
    expect(await holds(user)).toEqual([]);
    expect((await ledger(user)).filter((row) => row.kind === "refund")).toHaveLength(1);
    llm.fail(null);
    expect((await translate(app, user, "k-live")).status).toBe(200);
  });

  it("settles the hold with its answer: the credits stay spent and nothing is left to sweep", async () => {
    const user = await registerUser(app);
    const before = await balance(user);
    const res = await translate(app, user, "k-answered");
    expect(res.status).toBe(200);
    expect(await holds(user)).toEqual([]);
    tick(HOLD_STALE_MS * 3);
    await runScheduledTasks(deps, ["refundStaleHolds"]);
    expect(await balance(user)).toBe(before - cost);
    expect((await ledger(user)).map((row) => row.kind)).toEqual(["consumption"]);
  });

  it("renews each item on its own timer in per-item mode (Workers), and stops when it settles", async () => {
    const user = await registerUser(app);
    const work = createWorkInFlight({
      db: deps.db,
      clock,
      logger: deps.logger,
      instanceId: "inst-per-item",
      mode: "per-item",
      intervalMs: 20,
    });
    const [row] = await queryRows<{ id: string }>(
      deps.db,
      sql`with c as (select * from credit_charge(${user.userId}::uuid, 1, 'consumption', 'translate',
            null, null::uuid, null, ${now.toISOString()}::timestamptz))
          insert into credit_holds (consumption_id, user_id, instance_id, heartbeat_at)
          select consumption_id, ${user.userId}, 'inst-per-item', ${now.toISOString()}::timestamptz
          from c returning consumption_id as id`,
    );
    const heartbeat = async () =>
      (
        await queryRows<{ at: Date }>(
          deps.db,
          sql`select heartbeat_at as at from credit_holds where consumption_id = ${row!.id}`,
        )
      )[0]!.at.valueOf();
    const first = await heartbeat();
    work.trackHold(row!.id);
    tick(5000);
    await waitFor(async () => (await heartbeat()) > first, "the hold's own timer to renew it");
    work.untrackHold(row!.id);
    const settled = await heartbeat();
    tick(5000);
    await new Promise((r) => setTimeout(r, 100));
    expect(await heartbeat()).toBe(settled);
    work.stop();
  });
});

describe("the hold's ledger rules", () => {
  it("refunds a hold exactly once when the sweep and the instance's own refund race", async () => {
    const users = await Promise.all(Array.from({ length: 30 }, () => registerUser(app)));
    const before = await Promise.all(users.map(balance));
    const a = await ctx.makeInstance({}, { INSTANCE_ID: "inst-race" });
    const { chargeCredits } = await import("../../src/modules/credits/service");
    const { refundHold } = await import("../../src/modules/credits/holds");
    const charges = await Promise.all(
      users.map((user) =>
        chargeCredits(a.deps, { userId: user.userId, operation: "translate", hold: true }),
      ),
    );
    a.deps.work.stop();
    tick(HOLD_STALE_MS + 1000);
    await Promise.all([
      runScheduledTasks(deps, ["refundStaleHolds"]),
      recoverInstanceWork(a.deps),
      ...charges.map((charge) => refundHold(a.deps, charge.consumptionId!, "translate failed")),
    ]);
    expect(await Promise.all(users.map(balance))).toEqual(before);
    for (const user of users) {
      expect((await ledger(user)).map((row) => row.kind)).toEqual(["consumption", "refund"]);
    }
  });
});

describe.skipIf(!onPostgres)(
  "a sweep that refunds a charge while its settle waits on the hold",
  () => {
    it("keeps nothing: no translation, no usage row, no kept answer; 503 and the retry pays once", async () => {
      const user = await registerUser(app);
      const before = await balance(user);
      const sweeper = new pg.Client({ connectionString: (ctx.database as { url?: string }).url });
      await sweeper.connect();
      try {
        // The answer comes late, so the sweep below takes the hold first and keeps it locked.
        llm.latency(() => 800);
        const answered = translate(app, user, "k-swept");
        await waitFor(async () => (await holds(user)).length === 1, "the charge's hold");
        // What refundStaleHolds does for a silent heartbeat, left open: the hold's row is locked.
        await sweeper.query("begin");
        await sweeper.query(
          `with h as (delete from credit_holds where user_id = $1 returning consumption_id)
         select r.applied from h cross join lateral credit_refund(h.consumption_id, 'swept', now()) r`,
          [user.userId],
        );
        // The answer arrives: the translation is written and the settle waits on the hold's lock.
        await waitFor(async () => {
          const { rows } = await sweeper.query(
            `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock'`,
          );
          return rows[0].n > 0;
        }, "the settle to wait on the hold");
        await sweeper.query("commit");
        const res = await answered;
        expect(res.status, JSON.stringify(res.body)).toBe(503);
      } finally {
        llm.latency(() => 0);
        await sweeper.end();
      }
      expect(await balance(user)).toBe(before);
      expect((await ledger(user)).map((row) => row.kind)).toEqual(["consumption", "refund"]);
      const [kept] = await queryRows<{ translations: number; logs: number; keys: number }>(
        deps.db,
        sql`select (select count(*)::int from translations where user_id = ${user.userId}) as translations,
            (select count(*)::int from usage_logs where user_id = ${user.userId} and event = 'translate') as logs,
            (select count(*)::int from idempotency_keys where user_id = ${user.userId}) as keys`,
      );
      expect(kept).toEqual({ translations: 0, logs: 0, keys: 0 });
      // The retry with the same key runs and is charged once.
      const retried = await translate(app, user, "k-swept");
      expect(retried.status).toBe(200);
      expect(await balance(user)).toBe(before - cost);
    });
  },
);
