import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import { queryRows } from "../../src/db/client";
import { endLiveStreams } from "../../src/http/live-stream";
import { chargeCredits } from "../../src/modules/credits/service";
import { addAiProvider, setAiRouting } from "../support/ai";
import { call, randomIp, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

/**
 * Every event stream ends with its session and counts against the user's stream cap
 * (src/http/live-stream.ts, docs/adr/0088-streams-end-with-their-session.md): the agent's
 * events (GET /api/v1/agent/{id}/events) and the streamed chat (POST /api/v1/ai/chat?stream=true).
 */
const ctx = await createTestContext();
const { app, deps } = ctx;

/** Generous bound for "within about one poll interval" (SESSION_REVOCATION_POLL_MS is 500). */
const ENDS_WITHIN_MS = 2_000;

/**
 * An OpenAI-compatible model that sends its first words and then waits, so a streamed chat turn
 * stays open for as long as a test needs it; `resume()` has it finish every waiting answer.
 */
async function startStallingModel() {
  const open = new Set<ServerResponse>();
  const chunk = (delta: Record<string, string>, finish: string | null) =>
    `data: ${JSON.stringify({
      id: "chatcmpl-stall",
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model: "stall-model",
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const server = createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(chunk({ role: "assistant", content: "Thinking" }, null));
    open.add(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    resume: () => {
      for (const res of open) {
        res.write(chunk({ content: " it over" }, null));
        res.end(`${chunk({}, "stop")}data: [DONE]\n\n`);
      }
      open.clear();
    },
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let model: Awaited<ReturnType<typeof startStallingModel>>;
beforeAll(async () => {
  model = await startStallingModel();
  await addAiProvider(deps, {
    name: "stalling-llm",
    kind: "llm",
    baseUrl: model.url,
    apiKey: "sk-stall",
    models: ["stall-model"],
    timeoutMs: 10_000,
  });
  await setAiRouting(deps, "chat", ["stalling-llm"]);
});
afterAll(async () => {
  await model.close();
});

/** A queued agent run of the user's that nothing will advance: its stream stays open. */
async function queuedRun(user: Session) {
  const charge = await chargeCredits(deps, { userId: user.userId, operation: "agent_run" });
  const [row] = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into agent_pipelines (user_id, status, product, market, max_leads, consumption_id,
          attempts, pipeline_data)
        values (${user.userId}, 'queued', 'LED panel lights', 'Germany', 3,
          ${charge.consumptionId}, 0, '{"stages": [], "leads": [], "summary": null}'::jsonb)
        returning id`,
  );
  return row!.id;
}

const agentEvents = (user: Session, id: string, on: App = app, token = user.accessToken) =>
  on.request(`/api/v1/agent/${id}/events`, { headers: { Authorization: `Bearer ${token}` } });

const chatStream = (user: Session, message = "What is FOB?") =>
  app.request("/api/v1/ai/chat?stream=true", {
    method: "POST",
    headers: { Authorization: `Bearer ${user.accessToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ message }),
  });

interface SseEvent {
  event: string;
  data: any;
}

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

/**
 * Reads a stream as it comes: `first()` is its first event's text (the stream is surely running
 * once it is read), `rest(from)` the events after it once the stream has closed, and how long
 * after `from` that was.
 */
function follow(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let arrived: () => void = () => undefined;
  const firstArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const closed = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.includes("\n\n")) arrived();
    }
    arrived();
    return Date.now();
  })();
  return {
    first: async () => {
      await firstArrived;
      return text.slice(0, text.indexOf("\n\n") + 2);
    },
    rest: async (from: number) => {
      const at = await closed;
      const events = parseSse(text).slice(1);
      return { events, afterMs: at - from };
    },
    /** Everything read so far, as sent (fields parseSse drops, such as `retry:`, included). */
    raw: () => text,
  };
}

const logout = (user: Session, on: App = app) =>
  call(on, "/api/v1/auth/logout", {
    method: "POST",
    token: user.accessToken,
    csrf: user.csrfToken,
  });

const balanceOf = async (userId: string) => {
  const [row] = await queryRows<{ balance: number }>(
    deps.db,
    sql`select balance from user_credits where user_id = ${userId}`,
  );
  return row!.balance;
};

describe("an agent event stream ends with its session", () => {
  it("logout: an error event and the stream closes within a poll interval; the token then gets 401", async () => {
    const user = await registerBusinessUser(app, deps);
    const id = await queuedRun(user);
    const res = await agentEvents(user, id);
    expect(res.status).toBe(200);
    const stream = follow(res);
    expect(await stream.first()).toMatch(/^event: state/);
    const at = Date.now();
    expect((await logout(user)).status).toBe(200);
    const { events, afterMs } = await stream.rest(at);
    expect(afterMs).toBeLessThan(ENDS_WITHIN_MS);
    expect(events).toEqual([{ event: "error", data: { detail: "This session has ended" } }]);
    expect((await agentEvents(user, id)).status).toBe(401);
  });

  it("a password change ends the account's other sessions' streams, not this one's", async () => {
    const user = await registerBusinessUser(app, deps);
    const other = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    expect(other.status).toBe(200);
    const id = await queuedRun(user);
    const theirs = await agentEvents(user, id, app, other.body.access_token);
    const mine = await agentEvents(user, id);
    const theirStream = follow(theirs);
    const myStream = follow(mine);
    await Promise.all([theirStream.first(), myStream.first()]);
    const at = Date.now();
    const changed = await call(app, "/api/v1/auth/password", {
      json: { old_password: user.password, new_password: "a-new-password-for-streams" },
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expect(changed.status).toBe(200);
    const { events, afterMs } = await theirStream.rest(at);
    expect(afterMs).toBeLessThan(ENDS_WITHIN_MS);
    expect(events.at(-1)).toEqual({ event: "error", data: { detail: "This session has ended" } });
    // This session's stream goes on until its run ends.
    await queryRows(deps.db, sql`update agent_pipelines set status = 'failed' where id = ${id}`);
    const mineEvents = (await myStream.rest(at)).events;
    expect(mineEvents.map((e) => e.event)).toEqual(["status", "end"]);
  });

  it("an admin disabling the account ends its streams (another instance learns it from the table)", async () => {
    const admin = await registerAdmin(ctx);
    const user = await registerBusinessUser(app, deps);
    const id = await queuedRun(user);
    // The stream on a second instance: it hears of the disable through session_revocations.
    const second = await ctx.makeApp();
    const res = await agentEvents(user, id, second);
    const stream = follow(res);
    await stream.first();
    const at = Date.now();
    const disabled = await call(app, `/api/v1/admin/users/${user.userId}`, {
      method: "PATCH",
      token: admin.accessToken,
      ip: admin.ip,
      json: { status: "disabled" },
    });
    expect(disabled.status).toBe(200);
    const { events, afterMs } = await stream.rest(at);
    expect(afterMs).toBeLessThan(ENDS_WITHIN_MS);
    expect(events.at(-1)).toEqual({ event: "error", data: { detail: "This session has ended" } });
  });

  it("an access token that expires ends the stream", async () => {
    let offsetMs = 0;
    const clocked = await ctx.makeApp({ clock: { now: () => new Date(Date.now() + offsetMs) } });
    const user = await registerBusinessUser(clocked, deps);
    const id = await queuedRun(user);
    const res = await agentEvents(user, id, clocked);
    const stream = follow(res);
    await stream.first();
    const at = Date.now();
    offsetMs = (deps.config.ACCESS_TOKEN_TTL_SECONDS + 60) * 1000;
    const { events, afterMs } = await stream.rest(at);
    expect(afterMs).toBeLessThan(ENDS_WITHIN_MS);
    expect(events.at(-1)).toEqual({
      event: "error",
      data: { detail: "The access token has expired; refresh it and reconnect" },
    });
  });
});

describe("a streamed chat turn ends with its session", () => {
  it("logout mid-answer: an error event, the stream closes, and the turn is refunded", async () => {
    const user = await registerBusinessUser(app, deps);
    const before = await balanceOf(user.userId);
    const res = await chatStream(user);
    expect(res.status).toBe(200);
    const stream = follow(res);
    expect(await stream.first()).toMatch(/^event: meta/);
    expect(await balanceOf(user.userId)).toBeLessThan(before);
    const at = Date.now();
    expect((await logout(user)).status).toBe(200);
    const { events, afterMs } = await stream.rest(at);
    expect(afterMs).toBeLessThan(ENDS_WITHIN_MS);
    expect(events.at(-1)).toEqual({ event: "error", data: { detail: "This session has ended" } });
    expect(events.map((e) => e.event)).not.toContain("done");
    // The abandoned turn stops at the model's next words: its hold is refunded, nothing stored
    // (docs/adr/0070).
    model.resume();
    let balance = await balanceOf(user.userId);
    for (let i = 0; i < 100 && balance !== before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      balance = await balanceOf(user.userId);
    }
    expect(balance).toBe(before);
    const [stored] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from ai_messages where user_id = ${user.userId}::uuid
            and role = 'assistant'`,
    );
    expect(stored!.n).toBe(0);
  });
});

describe("streams per user", () => {
  const cap = () => deps.config.STREAMS_PER_USER;

  it("the one past STREAMS_PER_USER is 429 (agent or chat), another user is unaffected, and a closed stream frees its slot", async () => {
    expect(cap()).toBe(5);
    const user = await registerBusinessUser(app, deps);
    const id = await queuedRun(user);
    const open: Response[] = [];
    for (let i = 0; i < cap(); i++) {
      const res = await agentEvents(user, id);
      expect(res.status).toBe(200);
      open.push(res);
    }
    const refused = await agentEvents(user, id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("30");
    expect(await refused.json()).toEqual({
      detail: "Too many open event streams: at most 5 per user; close one or retry later",
      code: "rate_limited",
    });
    // The chat's stream counts too, and is refused before anything is charged.
    const balance = await balanceOf(user.userId);
    const chat = await chatStream(user);
    expect(chat.status).toBe(429);
    expect(await balanceOf(user.userId)).toBe(balance);

    const other = await registerBusinessUser(app, deps);
    const theirs = await agentEvents(other, await queuedRun(other));
    expect(theirs.status).toBe(200);
    await theirs.body!.cancel();

    // A client that goes away gives its slot back.
    await open.shift()!.body!.cancel();
    const again = await agentEvents(user, id);
    expect(again.status).toBe(200);
    open.push(again);
    expect((await agentEvents(user, id)).status).toBe(429);

    // So does a stream that ends by itself (its run ended): every slot comes back.
    await queryRows(deps.db, sql`update agent_pipelines set status = 'failed' where id = ${id}`);
    await Promise.all(open.map((res) => res.text()));
    await queryRows(deps.db, sql`update agent_pipelines set status = 'queued' where id = ${id}`);
    const after: Response[] = [];
    for (let i = 0; i < cap(); i++) after.push(await agentEvents(user, id));
    expect(after.map((res) => res.status)).toEqual(Array(cap()).fill(200));
    await Promise.all(after.map((res) => res.body!.cancel()));
  });

  it("a stream ended by logout frees its slot", async () => {
    const user = await registerBusinessUser(app, deps);
    const id = await queuedRun(user);
    const open = await Promise.all(Array.from({ length: cap() }, () => agentEvents(user, id)));
    expect(open.map((res) => res.status)).toEqual(Array(cap()).fill(200));
    await logout(user);
    await Promise.all(open.map((res) => res.text()));
    // A new login's streams are not held back by the ended ones.
    const login = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: randomIp(),
    });
    const res = await agentEvents(user, id, app, login.body.access_token);
    expect(res.status).toBe(200);
    await res.body!.cancel();
  });
});

describe("the class", () => {
  it("every event stream goes through liveSSE: no other module opens one itself", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const files = (await readdir("src", { recursive: true }))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `src/${f}`);
    const opening: string[] = [];
    const declaring: string[] = [];
    for (const file of files) {
      const text = await readFile(file, "utf8");
      // A value import of hono's streaming helpers (a type import opens nothing).
      if (
        /import\s+\{[^}]*\b(?<!type\s)(streamSSE|streamText|stream)\b[^}]*\}\s+from\s+"hono\/streaming"/.test(
          text,
        )
      ) {
        opening.push(file);
      }
      if (text.includes('"text/event-stream"')) declaring.push(file);
    }
    expect(opening).toEqual(["src/http/live-stream.ts"]);
    // Each route that answers an event stream hands it to liveSSE.
    for (const file of declaring) {
      expect(await readFile(file, "utf8"), file).toMatch(/liveSSE\(/);
    }
    expect(declaring.sort()).toEqual([
      "src/modules/agent/routes.ts",
      "src/modules/assistant/routes.ts",
    ]);
  });
});

describe("a server that stops (ADR 0116)", () => {
  it("ends the agent's streams with a reconnect event, and leaves a streamed chat turn to finish", async () => {
    // An instance of its own: the stop is for good, the other tests' instance goes on.
    const stopping = await ctx.makeInstance();
    const user = await registerBusinessUser(app, deps);
    const id = await queuedRun(user);
    const agentRes = await agentEvents(user, id, stopping.app);
    expect(agentRes.status).toBe(200);
    const agent = follow(agentRes);
    expect(await agent.first()).toMatch(/^event: state/);
    const chatRes = await stopping.app.request("/api/v1/ai/chat?stream=true", {
      method: "POST",
      headers: { Authorization: `Bearer ${user.accessToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "What is FOB?" }),
    });
    expect(chatRes.status).toBe(200);
    const chat = follow(chatRes);
    expect(await chat.first()).toMatch(/^event: meta/);

    const at = Date.now();
    expect(endLiveStreams(stopping.deps)).toBe(1);
    const { events, afterMs } = await agent.rest(at);
    expect(afterMs).toBeLessThan(ENDS_WITHIN_MS);
    expect(events).toEqual([
      { event: "reconnect", data: { detail: "This server is restarting; reconnect" } },
    ]);
    expect(agent.raw()).toMatch(/event: reconnect\n.*\nretry: 1000\n\n$/);

    // The chat turn was not ended: it finishes, answered in full.
    model.resume();
    const turn = await chat.rest(at);
    expect(turn.events.map((e) => e.event)).not.toContain("reconnect");
    expect(turn.events.at(-1)?.event).toBe("done");

    // A stream opened after the stop began (a kept-alive connection) ends at once.
    const late = follow(await agentEvents(user, id, stopping.app));
    expect((await late.rest(Date.now())).events.map((e) => e.event)).toEqual(["reconnect"]);
  });
});
