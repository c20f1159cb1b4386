import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { pendingAgentRuns, runAgentPipeline } from "../../src/modules/agent/service";
import {
  adjustCredits,
  chargeCredits,
  getBalance,
  refundCharge,
} from "../../src/modules/credits/service";
import type { FakeOpenAi } from "../fakes/openai";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, expectStatus, type Session, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

const ctx = await createTestContext();
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;

const ACME = {
  name: "Acme Imports Ltd",
  website: "https://acme-imports.example/",
  country: "Germany",
  summary: "Buys in bulk",
  fit_score: 75,
  contact: { email: "sales@acme-imports.example", phone: null },
  sources: ["https://acme-imports.example/"],
};

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-events",
    search: { name: "fake-brave", kind: "brave" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
  llm.reply((messages) => {
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    if (system.includes("find companies")) return JSON.stringify({ companies: [ACME] });
    return JSON.stringify({ subject: "Hello", body: "Dear Acme, hello." });
  });
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close()]);
});
beforeEach(async () => {
  await pendingAgentRuns();
  search.fail(null);
});

const PREFIXES = ["/agent", "/api/v1/agent"];
const balance = async (user: Session) => (await getBalance(deps, user.userId)).balance as number;
const refundRows = async (userId: string) =>
  queryRows<{ delta: number; note: string }>(
    deps.db,
    sql`select delta, note from credit_ledger where user_id = ${userId} and kind = 'refund'`,
  );

interface SseEvent {
  event: string;
  data: any;
}

/** Parses a whole `text/event-stream` body; comment lines are skipped. */
function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .map((block) => block.split("\n").filter((line) => line && !line.startsWith(":")))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const field = (name: string) =>
        lines
          .filter((line) => line.startsWith(`${name}:`))
          .map((line) => line.slice(name.length + 1).trimStart())
          .join("\n");
      return { event: field("event"), data: JSON.parse(field("data")) };
    });
}

const openEvents = (user: Session, id: string, prefix = "/agent") =>
  app.request(`${prefix}/${id}/events`, {
    headers: { Authorization: `Bearer ${user.accessToken}` },
  });
const cancel = (user: Session, id: string, prefix = "/agent") =>
  call(app, `${prefix}/${id}/cancel`, { method: "POST", token: user.accessToken });
/** A cancel that must succeed, typed by the OpenAPI document (ADR 0095); asserts 200. */
const cancelled200 = async (
  user: Session,
  id: string,
  prefix: "/agent" | "/api/v1/agent" = "/agent",
) => {
  const answer =
    prefix === "/agent"
      ? await typed(app).post("/agent/{id}/cancel", { token: user.accessToken, params: { id } })
      : await typed(app).post("/api/v1/agent/{id}/cancel", {
          token: user.accessToken,
          params: { id },
        });
  expectStatus(answer, 200);
  return answer;
};
/** GET /agent/{id} that must succeed, typed; asserts 200. */
const run = async (user: Session, id: string) => {
  const answer = await typed(app).get("/agent/{id}", { token: user.accessToken, params: { id } });
  expectStatus(answer, 200);
  return answer;
};

/** A pipeline row charged as a start would be, in the given state (no worker runs it). */
async function insertPipeline(
  user: Session,
  fields: { status: string; stages?: { name: string; status: string }[]; attempts?: number },
) {
  const charge = await chargeCredits(deps, { userId: user.userId, operation: "agent_run" });
  const stages = (fields.stages ?? []).map((s) => ({
    ...s,
    started_at: new Date().toISOString(),
    finished_at: s.status === "running" ? null : new Date().toISOString(),
    detail: null,
  }));
  const [row] = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into agent_pipelines (user_id, status, product, market, max_leads, consumption_id,
          attempts, lease_until, pipeline_data)
        values (${user.userId}, ${fields.status}, 'LED panel lights', 'Germany', 3,
          ${charge.consumptionId}, ${fields.attempts ?? (fields.status === "queued" ? 0 : 1)},
          ${fields.status === "running" ? new Date(Date.now() + 60_000).toISOString() : null},
          ${JSON.stringify({ stages, leads: [], summary: null })}::jsonb)
        returning id`,
  );
  return row!.id;
}

async function setRow(id: string, status: string, stages: [string, string][]) {
  const data = stages.map(([name, stageStatus]) => ({
    name,
    status: stageStatus,
    started_at: new Date().toISOString(),
    finished_at: stageStatus === "running" ? null : new Date().toISOString(),
    detail: null,
  }));
  await queryRows(
    deps.db,
    sql`update agent_pipelines set status = ${status},
          pipeline_data = jsonb_set(pipeline_data, '{stages}', ${JSON.stringify(data)}::jsonb),
          finished_at = case when ${status} in ('succeeded', 'failed') then now() end
        where id = ${id}`,
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("GET /agent/{id}/events", () => {
  it("sends the current state, one event per stage change, then the end, and closes", async () => {
    const user = await registerBusinessUser(app, deps);
    const id = await insertPipeline(user, { status: "queued" });
    const res = await openEvents(user, id);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const body = res.text();
    // Each change is held longer than a poll, so the stream sees every one.
    await pause(700);
    await setRow(id, "running", [["search", "running"]]);
    await pause(700);
    await setRow(id, "running", [
      ["search", "succeeded"],
      ["analysis", "succeeded"],
      ["outreach", "running"],
    ]);
    await pause(700);
    await setRow(id, "succeeded", [
      ["search", "succeeded"],
      ["analysis", "succeeded"],
      ["outreach", "succeeded"],
      ["save", "succeeded"],
    ]);
    const events = parseSse(await body);
    expect(events.map((e) => [e.event, e.data.name ?? e.data.status])).toEqual([
      ["state", "queued"],
      ["status", "running"],
      ["stage", "search"],
      ["stage", "search"],
      ["stage", "analysis"],
      ["stage", "outreach"],
      ["status", "succeeded"],
      ["stage", "outreach"],
      ["stage", "save"],
      ["end", "succeeded"],
    ]);
    expect(events[0]!.data).toMatchObject({ id, status: "queued", stages: [], error: null });
    expect(events[2]!.data).toMatchObject({ name: "search", status: "running" });
    expect(events[3]!.data).toMatchObject({ name: "search", status: "succeeded" });
    expect(events.at(-1)!.data).toMatchObject({ status: "succeeded", error: null });
  });

  it("a run that already ended: its state, then the end, at once (both prefixes)", async () => {
    const user = await registerBusinessUser(app, deps);
    const { body: started } = await call(app, "/agent/start", {
      token: user.accessToken,
      json: { product: "LED panel lights", market: "Germany", max_leads: 1 },
    });
    await pendingAgentRuns();
    for (const prefix of PREFIXES) {
      const events = parseSse(await (await openEvents(user, started.id, prefix)).text());
      expect(events.map((e) => e.event)).toEqual(["state", "end"]);
      expect(events[0]!.data.stages.map((s: { name: string }) => s.name)).toEqual([
        "search",
        "analysis",
        "outreach",
        "save",
      ]);
      expect(events[1]!.data).toMatchObject({
        status: "succeeded",
        summary: { leads: 1, drafted: 1, saved: 1 },
      });
    }
  });

  it("is the owner's only: another user's run is 404 (JSON), a non-UUID 422, no token 401", async () => {
    const user = await registerBusinessUser(app, deps);
    const other = await registerBusinessUser(app, deps);
    const id = await insertPipeline(user, { status: "failed" });
    for (const prefix of PREFIXES) {
      const theirs = await openEvents(other, id, prefix);
      expect(theirs.status).toBe(404);
      expect(await theirs.json()).toEqual({ detail: "Pipeline not found", code: "not_found" });
      expect((await openEvents(user, "not-a-uuid", prefix)).status).toBe(422);
      expect((await app.request(`${prefix}/${id}/events`)).status).toBe(401);
    }
  });
});

describe("POST /agent/{id}/cancel", () => {
  it("cancels a queued run with everything back, once; the run never starts", async () => {
    const user = await registerBusinessUser(app, deps);
    const id = await insertPipeline(user, { status: "queued" });
    const before = await balance(user);
    const { status, body } = await cancelled200(user, id);
    expect(status).toBe(200);
    expect(body).toEqual({ id, status: "cancelled", credits_refunded: 10, balance: before + 10 });
    expect(await balance(user)).toBe(before + 10);
    const read = await run(user, id);
    expect(read.body).toMatchObject({ status: "cancelled", error: "Cancelled by the user" });
    expect(read.body.finished_at).toEqual(expect.any(String));
    // A delivery arriving later finds nothing to claim; the sweep ignores it.
    expect(await runAgentPipeline(deps, id)).toBe("skipped");
    // Cancelling twice: 409, nothing more refunded; a full refund of the charge changes nothing.
    for (const prefix of PREFIXES) {
      const again = await cancel(user, id, prefix);
      expect(again.status).toBe(409);
      expect(again.body.detail).toMatch(/already ended \(cancelled\)/);
    }
    const [row] = await queryRows<{ consumption_id: string }>(
      deps.db,
      sql`select consumption_id from agent_pipelines where id = ${id}`,
    );
    expect(
      (await refundCharge(deps, { consumptionId: row!.consumption_id }, "again")).applied,
    ).toBe(false);
    expect(await refundRows(user.userId)).toEqual([{ delta: 10, note: "agent_run cancelled" }]);
  });

  it("refunds floor(cost * stages not started / 4) of a running run, writing the ledger", async () => {
    const user = await registerBusinessUser(app, deps);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: 10,
      actorId: user.userId,
      reason: "t",
    });
    const searching = await insertPipeline(user, {
      status: "running",
      stages: [{ name: "search", status: "running" }],
    });
    const analysed = await insertPipeline(user, {
      status: "running",
      stages: [
        { name: "search", status: "succeeded" },
        { name: "analysis", status: "succeeded" },
      ],
    });
    const drafting = await insertPipeline(user, {
      status: "running",
      stages: [
        { name: "search", status: "succeeded" },
        { name: "analysis", status: "succeeded" },
        { name: "outreach", status: "running" },
      ],
    });
    const saving = await insertPipeline(user, {
      status: "running",
      stages: [
        { name: "search", status: "succeeded" },
        { name: "analysis", status: "succeeded" },
        { name: "outreach", status: "succeeded" },
        { name: "save", status: "running" },
      ],
    });
    const before = await balance(user);
    expect((await cancelled200(user, searching)).body.credits_refunded).toBe(7);
    expect((await cancelled200(user, analysed)).body.credits_refunded).toBe(5);
    expect((await cancelled200(user, drafting, "/api/v1/agent")).body.credits_refunded).toBe(2);
    const last = await cancelled200(user, saving);
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ status: "cancelled", credits_refunded: 0 });
    expect(last.body.balance).toBe(before + 14);
    expect(await balance(user)).toBe(before + 14);
    expect((await refundRows(user.userId)).map((r) => r.delta).sort()).toEqual([2, 5, 7]);
    // The ledger still sums to the balance.
    const [sums] = await queryRows<{ ledger: number; balance: number }>(
      deps.db,
      sql`select (select sum(delta)::int from credit_ledger where user_id = ${user.userId}) as ledger,
            (select balance from user_credits where user_id = ${user.userId}) as balance`,
    );
    expect(sums!.ledger).toBe(sums!.balance);
  });

  it("a running worker stops writing and refunds nothing more; the stream ends cancelled", async () => {
    // The search hangs until the provider's 1 s timeout, so the run sits in its search stage.
    await queryRows(deps.db, sql`update search_providers set timeout_ms = 1000`);
    search.fail("hang");
    try {
      const user = await registerBusinessUser(app, deps);
      const before = await balance(user);
      const { body: started } = await call(app, "/agent/start", {
        token: user.accessToken,
        json: { product: "LED panel lights", market: "Germany" },
      });
      const res = await openEvents(user, started.id);
      const stream = res.text();
      let searching = false;
      for (let i = 0; i < 40 && !searching; i++) {
        const { body } = await call(app, `/agent/${started.id}`, { token: user.accessToken });
        searching = body.status === "running" && body.pipeline_data.stages.length === 1;
        if (!searching) await pause(20);
      }
      expect(searching).toBe(true);
      const cancelled = await cancelled200(user, started.id);
      expect(cancelled.body).toMatchObject({ status: "cancelled", credits_refunded: 7 });
      await pendingAgentRuns();
      const events = parseSse(await stream);
      expect(events[0]!.event).toBe("state");
      expect(events.at(-1)).toEqual({
        event: "end",
        data: expect.objectContaining({ status: "cancelled", error: "Cancelled by the user" }),
      });
      // The worker's search failed after the cancel: no failure written, no second refund.
      const { body } = await run(user, started.id);
      expect(body.status).toBe("cancelled");
      expect(body.pipeline_data.stages).toEqual([
        expect.objectContaining({ name: "search", status: "running" }),
      ]);
      expect(await refundRows(user.userId)).toEqual([{ delta: 7, note: "agent_run cancelled" }]);
      expect(await balance(user)).toBe(before - 10 + 7);
    } finally {
      search.fail(null);
      await queryRows(deps.db, sql`update search_providers set timeout_ms = 15000`);
    }
  });

  it("404 for another user's run; 422 for a non-UUID; CSRF for cookie sessions; 401 without auth", async () => {
    const user = await registerBusinessUser(app, deps);
    const other = await registerBusinessUser(app, deps);
    const id = await insertPipeline(user, { status: "queued" });
    const theirs = await cancel(other, id);
    expect(theirs.status).toBe(404);
    expect((await cancel(user, "not-a-uuid")).status).toBe(422);
    expect((await call(app, `/agent/${id}/cancel`, { method: "POST" })).status).toBe(401);
    const noCsrf = await call(app, `/agent/${id}/cancel`, {
      method: "POST",
      cookies: { access_token: user.accessToken },
    });
    expect(noCsrf.status).toBe(403);
    // Still queued and charged after all of those.
    const read = await run(user, id);
    expect(read.body.status).toBe("queued");
    expect(await refundRows(user.userId)).toEqual([]);
    const withCsrf = await call(app, `/agent/${id}/cancel`, {
      method: "POST",
      cookies: { access_token: user.accessToken, csrf_token: user.csrfToken },
      csrf: user.csrfToken,
    });
    expect(withCsrf.status).toBe(200);
  });

  it("409 for runs that already succeeded or failed; nothing refunded", async () => {
    const user = await registerBusinessUser(app, deps);
    for (const status of ["succeeded", "failed"]) {
      const id = await insertPipeline(user, { status });
      const { status: code, body } = await cancel(user, id);
      expect(code).toBe(409);
      expect(body.detail).toContain(`(${status})`);
    }
    expect(await refundRows(user.userId)).toEqual([]);
  });
});
