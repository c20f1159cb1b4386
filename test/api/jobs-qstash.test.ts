import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import { queryRows } from "../../src/db/client";
import { pendingAgentRuns, sweepAgentPipelines } from "../../src/modules/agent/service";
import type { FakeOpenAi } from "../fakes/openai";
import { type FakeQstash, signQstash, startFakeQstash } from "../fakes/qstash";
import type { FakeSearch } from "../fakes/search";
import { useFakeAgentProviders } from "../support/ai";
import { call, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

const PUBLIC_BASE_URL = "https://api.example.test";
const JOB_URL = `${PUBLIC_BASE_URL}/api/v1/jobs/agent-run`;
const CURRENT_KEY = "sig_current_0123456789abcdefghijklmnop";
const NEXT_KEY = "sig_next_0123456789abcdefghijklmnopqrs";

const qstash: FakeQstash = await startFakeQstash();
const ctx = await createTestContext({
  env: {
    PUBLIC_BASE_URL,
    QSTASH_TOKEN: qstash.token,
    QSTASH_URL: qstash.url,
    QSTASH_CURRENT_SIGNING_KEY: CURRENT_KEY,
    QSTASH_NEXT_SIGNING_KEY: NEXT_KEY,
  },
});
const { app, deps } = ctx;
let llm: FakeOpenAi;
let search: FakeSearch;

beforeAll(async () => {
  ({ llm, search } = await useFakeAgentProviders(deps, {
    llmKey: "sk-jobs",
    search: { name: "fake-searxng", kind: "searxng" },
    tasks: ["discovery_analysis", "followup_draft"],
  }));
  // The fake search's default results name Acme Imports; the analysis lists it.
  llm.reply((messages) => {
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    if (system.includes("find companies")) {
      return JSON.stringify({
        companies: [
          {
            name: "Acme Imports Ltd",
            website: "https://acme-imports.example/",
            country: "Germany",
            summary: "Buys in bulk",
            fit_score: 75,
            contact: { email: "sales@acme-imports.example", phone: null },
            sources: ["https://acme-imports.example/"],
          },
        ],
      });
    }
    return JSON.stringify({ subject: "Hello", body: "Dear Acme, hello." });
  });
});
afterAll(async () => {
  await pendingAgentRuns();
  await Promise.all([llm.close(), search.close(), qstash.close()]);
});
beforeEach(() => {
  qstash.fail(null);
});

const start = (user: Session) =>
  call(app, "/api/v1/agent/start", {
    token: user.accessToken,
    json: { product: "LED panel lights", market: "Germany", max_leads: 3 },
  });

function deliver(
  target: App,
  name: string,
  body: string,
  signature: string | undefined,
): Promise<{ status: number; body: any }> {
  return call(target, `/api/v1/jobs/${name}`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      ...(signature === undefined ? {} : { "Upstash-Signature": signature }),
    },
  });
}

const pipeline = async (id: string) =>
  (
    await queryRows<{ status: string; attempts: number }>(
      deps.db,
      sql`select status, attempts from agent_pipelines where id = ${id}`,
    )
  )[0]!;

describe("dispatch through QStash", () => {
  it("publishes the run to the jobs URL with the token; a signed delivery runs it", async () => {
    const user = await registerBusinessUser(app, deps);
    const { status, body } = await start(user);
    expect(status).toBe(202);
    await pendingAgentRuns();
    const message = qstash.messages.at(-1)!;
    expect(message.destination).toBe(JOB_URL);
    expect(message.authorization).toBe(`Bearer ${qstash.token}`);
    expect(message.headers["upstash-retries"]).toBe("3");
    expect(JSON.parse(message.body)).toEqual({ pipeline_id: body.id });
    // Published, not run in-process.
    expect(await pipeline(body.id)).toEqual({ status: "queued", attempts: 0 });

    const signature = signQstash(CURRENT_KEY, { url: message.destination, body: message.body });
    const delivered = await deliver(app, "agent-run", message.body, signature);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toEqual({ ok: true });
    expect(await pipeline(body.id)).toEqual({ status: "succeeded", attempts: 1 });
    const read = await call(app, `/agent/${body.id}`, { token: user.accessToken });
    expect(read.body.pipeline_data.summary).toMatchObject({ leads: 1, drafted: 1 });

    // QStash redelivering the same message: 200, nothing runs again.
    const again = await deliver(app, "agent-run", message.body, signature);
    expect(again.status).toBe(200);
    expect(await pipeline(body.id)).toEqual({ status: "succeeded", attempts: 1 });
  });

  it("accepts a delivery signed with the next signing key (key rotation)", async () => {
    const user = await registerBusinessUser(app, deps);
    const { body } = await start(user);
    const message = qstash.messages.at(-1)!;
    const signature = signQstash(NEXT_KEY, { url: JOB_URL, body: message.body });
    expect((await deliver(app, "agent-run", message.body, signature)).status).toBe(200);
    expect((await pipeline(body.id)).status).toBe("succeeded");
  });

  it("falls back to an in-process run when publishing fails", async () => {
    qstash.fail("http-500");
    const user = await registerBusinessUser(app, deps);
    const before = qstash.messages.length;
    const { status, body } = await start(user);
    expect(status).toBe(202);
    await pendingAgentRuns();
    expect(qstash.messages.length).toBe(before);
    expect((await pipeline(body.id)).status).toBe("succeeded");
  });

  it("the sweep publishes a stale queued run again", async () => {
    const user = await registerBusinessUser(app, deps);
    const [row] = await queryRows<{ id: string }>(
      deps.db,
      sql`insert into agent_pipelines (user_id, product, market, created_at)
          values (${user.userId}, 'LED', 'Germany', ${new Date(Date.now() - 10 * 60_000).toISOString()})
          returning id`,
    );
    const result = await sweepAgentPipelines(deps);
    expect(result).toMatchObject({ found: 1, published: 1, ran: 0 });
    expect(JSON.parse(qstash.messages.at(-1)!.body)).toEqual({ pipeline_id: row!.id });
    expect((await pipeline(row!.id)).status).toBe("queued");
  });
});

describe("POST /api/v1/jobs/:name", () => {
  async function queuedMessage() {
    const user = await registerBusinessUser(app, deps);
    const { body } = await start(user);
    return { id: body.id as string, body: qstash.messages.at(-1)!.body };
  }

  it("401 for a missing, wrong-key, wrong-body, wrong-URL or expired signature; nothing runs", async () => {
    const { id, body } = await queuedMessage();
    const past = Math.floor(Date.now() / 1000) - 3600;
    for (const signature of [
      undefined,
      "not-a-jwt",
      signQstash("sig_wrong_key_0123456789abcdefghijkl", { url: JOB_URL, body }),
      signQstash(CURRENT_KEY, { url: JOB_URL, body: `${body} ` }),
      signQstash(CURRENT_KEY, { url: "https://evil.example/api/v1/jobs/agent-run", body }),
      signQstash(CURRENT_KEY, { url: JOB_URL, body, nowSeconds: past, ttlSeconds: 60 }),
    ]) {
      const res = await deliver(app, "agent-run", body, signature);
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/Upstash-Signature/);
    }
    expect(await pipeline(id)).toEqual({ status: "queued", attempts: 0 });
  });

  it("404 for an unknown job, even one named like an object property", async () => {
    for (const name of ["no-such-job", "constructor", "__proto__"]) {
      const body = JSON.stringify({ pipeline_id: "0190d4c8-7b5e-7000-8000-000000000000" });
      const signature = signQstash(CURRENT_KEY, {
        url: `${PUBLIC_BASE_URL}/api/v1/jobs/${name}`,
        body,
      });
      expect((await deliver(app, name, body, signature)).status).toBe(404);
    }
  });

  it("422 for a signed payload without a pipeline id", async () => {
    for (const body of ["{}", JSON.stringify({ pipeline_id: "x" }), "not json"]) {
      const signature = signQstash(CURRENT_KEY, { url: JOB_URL, body });
      expect((await deliver(app, "agent-run", body, signature)).status).toBe(422);
    }
  });

  it("a replayed delivery is answered 200 and not run; QStash's retry (a new token) runs", async () => {
    const { id, body } = await queuedMessage();
    const signature = signQstash(CURRENT_KEY, { url: JOB_URL, body });
    const first = await call(app, "/api/v1/jobs/agent-run", {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/json",
        "Upstash-Signature": signature,
        "Upstash-Message-Id": "msg_replay_1",
      },
    });
    expect(first.status).toBe(200);
    expect(await pipeline(id)).toEqual({ status: "succeeded", attempts: 1 });
    const [recorded] = await queryRows<{ message_id: string }>(
      deps.db,
      sql`select message_id from qstash_deliveries where message_id = 'msg_replay_1'`,
    );
    expect(recorded).toBeDefined();
    // Whatever state the run is in later (here queued again), the captured delivery runs nothing.
    await queryRows(deps.db, sql`update agent_pipelines set status = 'queued' where id = ${id}`);
    for (let i = 0; i < 3; i++) {
      const replay = await deliver(app, "agent-run", body, signature);
      expect(replay).toMatchObject({ status: 200, body: { ok: true } });
    }
    expect(await pipeline(id)).toEqual({ status: "queued", attempts: 1 });
    // QStash signs every delivery attempt anew: its retry is a new token and runs.
    const retry = signQstash(CURRENT_KEY, { url: JOB_URL, body });
    expect((await deliver(app, "agent-run", body, retry)).status).toBe(200);
    expect((await pipeline(id)).status).toBe("succeeded");
  });

  it("a failed delivery is not recorded: the same token delivered again runs again", async () => {
    const body = "{}";
    const signature = signQstash(CURRENT_KEY, { url: JOB_URL, body });
    expect((await deliver(app, "agent-run", body, signature)).status).toBe(422);
    expect((await deliver(app, "agent-run", body, signature)).status).toBe(422);
  });

  it("503 without PUBLIC_BASE_URL: the signed URL is never taken from the request's Host", async () => {
    const hostless = await ctx.makeApp({}, { PUBLIC_BASE_URL: "" });
    const { id, body } = await queuedMessage();
    for (const host of ["localhost", "evil.example"]) {
      const signature = signQstash(CURRENT_KEY, {
        url: `http://${host}/api/v1/jobs/agent-run`,
        body,
      });
      const res = await call(hostless, `http://${host}/api/v1/jobs/agent-run`, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json", "Upstash-Signature": signature },
      });
      expect(res.status).toBe(503);
    }
    expect(await pipeline(id)).toEqual({ status: "queued", attempts: 0 });
  });

  it("503 when the signing keys are not configured", async () => {
    const unconfigured = await ctx.makeApp(
      {},
      { QSTASH_CURRENT_SIGNING_KEY: "", QSTASH_NEXT_SIGNING_KEY: "" },
    );
    const body = JSON.stringify({ pipeline_id: "0190d4c8-7b5e-7000-8000-000000000000" });
    const signature = signQstash(CURRENT_KEY, { url: JOB_URL, body });
    const res = await deliver(unconfigured, "agent-run", body, signature);
    expect(res.status).toBe(503);
  });
});
