import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { createLogger, type LogLevel } from "../../src/lib/logger";
import { pendingMail } from "../../src/modules/account/service";
import { pendingJobs, runDetached } from "../../src/modules/jobs/background";
import { call, randomIp, registerUser } from "../support/client";
import { createTestContext, PRODUCTION_ENV } from "../support/harness";

// No SQL parameter and no full recipient address in any log line (issue 20): the logger scrubs
// every field however a caller built it, so these go through the real callers.

const ctx = await createTestContext();

/** A logger at debug level whose lines this test reads. */
function capture() {
  const lines: { line: string; level: LogLevel }[] = [];
  const logger = createLogger("debug", (line, level) => lines.push({ line, level }));
  return { logger, lines, text: () => lines.map((l) => l.line).join("\n") };
}

describe("no SQL parameters in any log", () => {
  // The task's `now` is a parameter of its statement: this instant is the marker.
  const MARKER_TIME = "2031-07-13T11:22:33.444Z";

  beforeAll(async () => {
    // Any delete from idempotency_keys fails, as a lost permission or a lock timeout would.
    await ctx.database.db.execute(sql`
      create or replace function refuse_for_log_test() returns trigger language plpgsql as $$
      begin raise exception 'refused by the log test'; end $$`);
    await ctx.database.db.execute(sql`
      create trigger refuse_purge_for_log_test before delete on idempotency_keys
      for each statement execute function refuse_for_log_test()`);
  });
  afterAll(async () => {
    await ctx.database.db.execute(
      sql`drop trigger if exists refuse_purge_for_log_test on idempotency_keys`,
    );
  });

  it("a failed scheduled task logs what failed, never its SQL or its parameters", async () => {
    const { logger, lines, text } = capture();
    const { deps } = await ctx.makeInstance({
      logger,
      clock: { now: () => new Date(MARKER_TIME) },
    });
    const [outcome] = await runScheduledTasks(deps, ["purgeExpired"]);
    expect(outcome).toMatchObject({ task: "purgeExpired", ok: false });
    const failure = lines
      .map((l) => JSON.parse(l.line))
      .find((l) => l.msg === "scheduled task failed");
    expect(failure).toMatchObject({
      level: "error",
      task: "purgeExpired",
      error: { code: "P0001", statement: "delete from idempotency_keys" },
    });
    expect(text()).not.toContain(MARKER_TIME);
    expect(text()).not.toMatch(/Failed query:|params:|expires_at/);
  });

  it("every shape a caller logs an error in is scrubbed: the error, String(error), its stack, nested", async () => {
    const marker = "MARKER-7f3c9 boss@corp.example";
    const error = await ctx.database.db.execute(sql`select ${marker}::int`).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    // What drizzle's error says of itself: the statement and the parameter.
    expect(String(error)).toContain(marker);

    const { logger, text } = capture();
    logger.error(`task failed: ${String(error)}`);
    logger.error("failed", { error });
    logger.error("failed", { error: String(error) });
    logger.error("failed", { stack: error!.stack });
    logger.error("failed", { nested: { errors: [error, { cause: String(error) }] } });
    const { deps } = await ctx.makeInstance({ logger });
    // A background job (agent runs, discovery, mail) failing the same way.
    runDetached(
      deps,
      "log test job",
      {},
      () => deps.db.execute(sql`select ${marker}::int`),
      undefined,
    );
    await pendingJobs();

    expect(text()).toContain("log test job crashed");
    expect(text()).not.toContain("MARKER-7f3c9");
    expect(text()).not.toContain("boss@corp.example");
    // What is kept says what failed.
    expect(text()).toContain("22P02");
    expect(text()).toContain("Failed query (select)");
  });
});

describe("no full recipient address in any log", () => {
  it("production without mail (ALLOW_NO_MAIL) logs each dropped mail with the address masked", async () => {
    const { logger, lines, text } = capture();
    const app = await ctx.makeApp({ logger }, PRODUCTION_ENV);
    // Registering writes the verification mail; forgetting the password, the reset mail.
    const { email } = await registerUser(app);
    const forgot = await call(app, "/api/v1/auth/password/forgot", {
      json: { email },
      ip: randomIp(),
    });
    expect(forgot.status).toBe(202);
    await pendingMail();
    const dropped = lines
      .map((l) => JSON.parse(l.line))
      .filter((l) => String(l.msg).startsWith("mail not sent: no mail provider configured"));
    expect(dropped.map((l) => l.subject)).toHaveLength(2);
    const [local, domain] = email.split("@");
    for (const entry of dropped) {
      expect(entry.level).toBe("error");
      expect(entry.to).toBe(`${local![0]}***@${domain}`);
    }
    expect(text()).not.toContain(email);
    expect(text()).not.toMatch(/token=/);
  });
});
