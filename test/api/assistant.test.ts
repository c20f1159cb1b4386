import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { adjustCredits } from "../../src/modules/credits/service";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, setAiRouting } from "../support/ai";
import {
  type ApiOptions,
  call,
  expectStatus,
  type Operation,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext } from "../support/harness";

/** The file's own clock: each tick moves it a minute, so orderings by time are exact. */
let now = new Date("2026-03-02T09:00:00.000Z");
const tick = () => {
  now = new Date(now.getTime() + 60_000);
};
const ctx = await createTestContext({ runtime: { clock: { now: () => now } } });
const { app, deps } = ctx;
let llm: FakeOpenAi;

const CHAT = "/api/v1/ai/chat" as const;
const CONVERSATION = "/api/v1/ai/conversations/{id}" as const;
const STREAM = "/api/v1/ai/chat?stream=true";

beforeAll(async () => {
  llm = await startFakeOpenAi("sk-chat");
  await addAiProvider(deps, {
    name: "chat-llm",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["chat-model"],
  });
  await setAiRouting(deps, "chat", ["chat-llm"]);
});
afterAll(async () => {
  await llm.close();
});
beforeEach(async () => {
  tick();
  llm.fail(null);
  llm.reply((messages) => `echo: ${messages.filter((m) => m.role === "user").at(-1)?.content}`);
  await queryRows(deps.db, sql`delete from faqs`);
});

async function addFaq(input: {
  question: string;
  answer: string;
  keywords?: string[];
  enabled?: boolean;
  sortOrder?: number;
}) {
  await queryRows(
    deps.db,
    sql`insert into faqs (question, answer, keywords, enabled, sort_order)
        values (${input.question}, ${input.answer}, ${JSON.stringify(input.keywords ?? [])}::jsonb,
          ${input.enabled ?? true}, ${input.sortOrder ?? 0})`,
  );
}

const balanceOf = async (user: Session) => {
  const answer = await typed(app).get("/api/v1/credits/balance", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer.body.balance;
};

const messageCount = async (userId: string) => {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from ai_messages where user_id = ${userId}::uuid`,
  );
  return row!.n;
};

const chat = (user: Session, json: unknown, headers?: Record<string, string>) =>
  call(app, CHAT, { token: user.accessToken, json, ...(headers ? { headers } : {}) });
type ChatBody = NonNullable<ApiOptions<Operation<typeof CHAT, "post">>["json"]>;
/** A JSON chat turn that must succeed, typed by the OpenAPI document (ADR 0095); `chat` stays
 * for the error paths. */
const chatted = async (user: Session, json: ChatBody, headers?: Record<string, string>) => {
  const answer = await typed(app).post(CHAT, { token: user.accessToken, json, headers });
  expectStatus(answer, 200);
  return answer;
};
/** GET one conversation of the caller, typed; asserts 200. */
const conversation = async (user: Session, id: string) => {
  const answer = await typed(app).get(CONVERSATION, { token: user.accessToken, params: { id } });
  expectStatus(answer, 200);
  return answer;
};
const conversations = async (user: Session, query: { size?: number; page?: number } = {}) => {
  const answer = await typed(app).get("/api/v1/ai/conversations", {
    token: user.accessToken,
    query,
  });
  expectStatus(answer, 200);
  return answer;
};

interface SseEvent {
  event: string;
  data: any;
}

/** Parses a text/event-stream body into its events (event name + JSON data). */
function parseSse(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim())
    .map((block) => {
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      return { event, data: JSON.parse(data.join("\n")) };
    });
}

async function streamChat(user: Session, json: unknown) {
  const result = await call(app, STREAM, { token: user.accessToken, json });
  return {
    ...result,
    events: result.res.headers.get("content-type")?.startsWith("text/event-stream")
      ? parseSse(result.body as string)
      : [],
  };
}

describe("FAQ answers", () => {
  it("answers a keyword match instantly and free, without any provider, and stores it", async () => {
    await addFaq({
      question: "What are your payment terms?",
      answer: "30% deposit, 70% before shipment.",
      keywords: ["payment terms", "付款"],
    });
    llm.fail("http-500");
    const sent = llm.requests.length;
    const user = await registerUser(app);
    const res = await chatted(user, { message: "Hi, which PAYMENT TERMS do you offer?" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: {
        role: "assistant",
        content: "30% deposit, 70% before shipment.",
        source: "faq",
        action: null,
      },
      action: null,
      credits_charged: 0,
      balance: 30,
    });
    expect(llm.requests.length).toBe(sent);
    expect(await balanceOf(user)).toBe(30);

    const convo = await conversation(user, res.body.conversation_id);
    expect(convo.status).toBe(200);
    expect(convo.body.title).toBe("Hi, which PAYMENT TERMS do you offer?");
    expect(convo.body.messages).toEqual([
      expect.objectContaining({
        role: "user",
        content: "Hi, which PAYMENT TERMS do you offer?",
        source: null,
      }),
      expect.objectContaining({
        id: res.body.message.id,
        role: "assistant",
        source: "faq",
        created_at: res.body.message.created_at,
      }),
    ]);

    // A CJK keyword matches inside a Chinese sentence.
    const cjk = await chatted(user, { message: "请问你们的付款方式是什么?" });
    expect(cjk.body.message).toMatchObject({ source: "faq" });
    expect(cjk.body.credits_charged).toBe(0);
  });

  it("answers a near-identical question by trigram similarity, but not a different one", async () => {
    await addFaq({
      question: "How long does shipping to Europe take?",
      answer: "Sea freight: 30-40 days.",
    });
    const user = await registerUser(app);
    const hit = await chatted(user, { message: "how long does shipping to europe take" });
    expect(hit.body.message).toMatchObject({ source: "faq", content: "Sea freight: 30-40 days." });
    expect(hit.body.credits_charged).toBe(0);

    const miss = await chatted(user, { message: "Write a short greeting for a new buyer" });
    expect(miss.body.message).toMatchObject({ source: "llm" });
    expect(miss.body.credits_charged).toBe(1);
  });

  it("prefers more keyword hits, then sort_order, and ignores disabled FAQs", async () => {
    await addFaq({ question: "Disabled", answer: "never", keywords: ["moq"], enabled: false });
    await addFaq({ question: "MOQ", answer: "one hit, late", keywords: ["moq"], sortOrder: 5 });
    await addFaq({ question: "MOQ", answer: "one hit, early", keywords: ["moq"], sortOrder: 1 });
    const user = await registerUser(app);
    expect((await chatted(user, { message: "What is your MOQ?" })).body.message.content).toBe(
      "one hit, early",
    );
    await addFaq({
      question: "Samples",
      answer: "two hits",
      keywords: ["moq", "sample"],
      sortOrder: 9,
    });
    expect((await chatted(user, { message: "MOQ for a sample order?" })).body.message.content).toBe(
      "two hits",
    );
  });

  it("answers from the FAQ even with no credits left", async () => {
    await addFaq({ question: "Lead time", answer: "15 days.", keywords: ["lead time"] });
    const user = await registerUser(app);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -30,
      actorId: user.userId,
      reason: "t",
    });
    const res = await chatted(user, { message: "What is the lead time?" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ credits_charged: 0, balance: 0 });
  });
});

describe("LLM answers", () => {
  it("charges the chat cost and sends the prompt and the conversation's history", async () => {
    const user = await registerUser(app);
    llm.reply(() => "FOB means the seller loads the goods on board.");
    const first = await chatted(user, { message: "What does FOB mean?" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      message: {
        role: "assistant",
        content: "FOB means the seller loads the goods on board.",
        source: "llm",
        action: null,
      },
      credits_charged: 1,
      balance: 29,
    });
    expect(await balanceOf(user)).toBe(29);
    const sentFirst = llm.requests.at(-1)!;
    expect(sentFirst.model).toBe("chat-model");
    expect(sentFirst.messages[0]!.role).toBe("system");
    expect(sentFirst.messages[0]!.content).toContain("You are a trade assistant");
    expect(sentFirst.messages[0]!.content).toContain("```action");

    tick();
    llm.reply(() => "CIF adds insurance and freight.");
    const second = await chatted(user, {
      message: "And CIF?",
      conversation_id: first.body.conversation_id,
    });
    expect(second.body).toMatchObject({
      conversation_id: first.body.conversation_id,
      credits_charged: 1,
      balance: 28,
    });
    expect(llm.requests.at(-1)!.messages.slice(1)).toEqual([
      { role: "user", content: "What does FOB mean?" },
      { role: "assistant", content: "FOB means the seller loads the goods on board." },
      { role: "user", content: "And CIF?" },
    ]);
    const convo = await conversation(user, first.body.conversation_id);
    expect(convo.body.message_count).toBe(4);
    expect(convo.body.title).toBe("What does FOB mean?");
    expect(convo.body.updated_at).toBe(now.toISOString());
  });

  it("sends only the last 20 messages as history", async () => {
    const user = await registerUser(app);
    let conversationId: string | undefined;
    for (let i = 1; i <= 12; i++) {
      tick();
      const res = await chatted(user, {
        message: `question ${i}`,
        ...(conversationId ? { conversation_id: conversationId } : {}),
      });
      conversationId = res.body.conversation_id;
    }
    const sent = llm.requests.at(-1)!.messages.slice(1);
    expect(sent).toHaveLength(21);
    expect(sent[0]).toEqual({ role: "user", content: "question 2" });
    expect(sent.at(-1)).toEqual({ role: "user", content: "question 12" });
  });

  it("extracts an add_customer action, strips the block and writes no customer", async () => {
    const user = await registerUser(app);
    llm.reply(
      () =>
        "I prepared the customer, please confirm.\n```action\n" +
        JSON.stringify({
          type: "add_customer",
          data: {
            company: " Acme GmbH ",
            contact_name: "Anna Weber",
            email: "anna@acme.de",
            phone: 4930123456,
            country: "Germany",
            status: "won",
            bogus: "x",
          },
        }) +
        "\n```",
    );
    const res = await chatted(user, {
      message: "Add customer Acme GmbH, Anna Weber, anna@acme.de",
    });
    expect(res.status).toBe(200);
    const action = {
      type: "add_customer",
      data: {
        company: "Acme GmbH",
        contact_name: "Anna Weber",
        email: "anna@acme.de",
        phone: "4930123456",
        country: "Germany",
      },
    };
    // Stored as a proposal with an id (POST /ai/actions/{id}/confirm, test/api/h6-actions.test.ts).
    expect(res.body.action).toEqual({ id: expect.any(String), ...action });
    expect(res.body.message.action).toEqual(res.body.action);
    expect(res.body.message.content).toBe("I prepared the customer, please confirm.");
    const customers = await typed(app).get("/api/v1/customers", { token: user.accessToken });
    expectStatus(customers, 200);
    expect(customers.body.total).toBe(0);
    const convo = await conversation(user, res.body.conversation_id);
    expect(convo.body.messages[1]).toMatchObject({ action, content: res.body.message.content });
    // The proposal is a valid customer create body as it stands.
    const created = await typed(app).post("/api/v1/customers", {
      token: user.accessToken,
      json: action.data,
    });
    expectStatus(created, 201);
  });

  it("drops invalid action fields, and the whole action when nothing valid remains", async () => {
    const user = await registerUser(app);
    llm.reply(
      () =>
        'Prepared.\n```action\n{"type":"add_customer","data":{"company":"Beta Ltd",' +
        `"email":"not-an-email","phone":"${"9".repeat(51)}","country":["UK"]}}\n\`\`\``,
    );
    const partial = await chatted(user, { message: "save Beta Ltd as a customer" });
    expect(partial.body.action).toEqual({
      id: expect.any(String),
      type: "add_customer",
      data: { company: "Beta Ltd" },
    });

    const cases = [
      '```action\n{"type":"add_customer","data":{"email":"nope","country":"UK"}}\n```',
      '```action\n{"type":"delete_everything","data":{"company":"X"}}\n```',
      "```action\n{not json}\n```",
      '```action\n{"type":"add_customer","data":["Acme"]}',
    ];
    for (const reply of cases) {
      llm.reply(() => `Okay.\n${reply}`);
      const res = await chatted(user, { message: "add a customer please" });
      expect(res.status).toBe(200);
      expect(res.body.action).toBeNull();
      expect(res.body.message.content).toBe("Okay.");
    }
  });

  it("refunds and answers 503 without leaking provider text when the provider fails", async () => {
    const user = await registerUser(app);
    const first = await chatted(user, { message: "hello" });
    const stored = await messageCount(user.userId);
    llm.fail("http-500");
    const res = await chat(user, { message: "again", conversation_id: first.body.conversation_id });
    expect(res.status).toBe(503);
    expect(JSON.stringify(res.body)).not.toContain("server had an error");
    expect(await balanceOf(user)).toBe(29);
    expect(await messageCount(user.userId)).toBe(stored);

    const fresh = await chat(user, { message: "new topic" });
    expect(fresh.status).toBe(503);
    const list = await conversations(user);
    expect(list.body.total).toBe(1);
  });

  it("answers 402 with no credits and writes nothing", async () => {
    const user = await registerUser(app);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -30,
      actorId: user.userId,
      reason: "t",
    });
    const sent = llm.requests.length;
    const res = await chat(user, { message: "Explain EXW" });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ required: 1, balance: 0 });
    expect(llm.requests.length).toBe(sent);
    expect(await messageCount(user.userId)).toBe(0);
    const list = await conversations(user);
    expect(list.body.total).toBe(0);
  });

  it("charges a retried request with the same Idempotency-Key once", async () => {
    const user = await registerUser(app);
    const headers = { "Idempotency-Key": "chat-retry-1" };
    const first = await chatted(user, { message: "Explain DDP" }, headers);
    const again = await chatted(user, { message: "Explain DDP" }, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(user)).toBe(29);
    expect(await messageCount(user.userId)).toBe(2);
  });
});

describe("streaming", () => {
  it("streams meta, deltas and done, and stores the answer", async () => {
    const user = await registerUser(app);
    const answer = "Hello there, this is a streamed answer about incoterms.";
    llm.reply(() => answer);
    const res = await streamChat(user, { message: "Tell me about incoterms" });
    expect(res.status).toBe(200);
    expect(res.res.headers.get("content-type")).toContain("text/event-stream");
    const names = res.events.map((e) => e.event);
    expect(names[0]).toBe("meta");
    expect(names.at(-1)).toBe("done");
    expect(names.filter((n) => n === "delta").length).toBeGreaterThan(1);
    const conversationId = res.events[0]!.data.conversation_id;
    const text = res.events
      .filter((e) => e.event === "delta")
      .map((e) => e.data.text)
      .join("");
    expect(text).toBe(answer);
    const done = res.events.at(-1)!.data;
    expect(done).toMatchObject({ action: null, credits_charged: 1, balance: 29 });
    expect(llm.requests.at(-1)!.stream).toBe(true);

    const convo = await conversation(user, conversationId);
    expect(convo.body.messages).toEqual([
      expect.objectContaining({ role: "user", content: "Tell me about incoterms" }),
      expect.objectContaining({ id: done.message_id, content: answer, source: "llm" }),
    ]);
    expect(await balanceOf(user)).toBe(29);
  });

  it("streams with stream: true in the body as with ?stream=true, and answers JSON without either", async () => {
    const user = await registerUser(app);
    const answer = "A streamed answer asked for in the body.";
    llm.reply(() => answer);
    const res = await call(app, CHAT, {
      token: user.accessToken,
      json: { message: "Tell me about payment terms", stream: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(res.body as string);
    expect(events[0]!.event).toBe("meta");
    expect(events.at(-1)).toMatchObject({ event: "done", data: { credits_charged: 1 } });
    const text = events
      .filter((e) => e.event === "delta")
      .map((e) => e.data.text)
      .join("");
    expect(text).toBe(answer);

    // The query alone streams too; `stream: false` in the body does not undo `?stream=true`.
    llm.reply(() => answer);
    const both = await streamChat(user, { message: "And delivery terms?", stream: false });
    expect(both.status).toBe(200);
    expect(both.events.at(-1)!.event).toBe("done");

    // Neither: JSON.
    llm.reply(() => answer);
    const plain = await chatted(user, { message: "And insurance?", stream: false });
    expect(plain.status).toBe(200);
    expect(plain.res.headers.get("content-type")).toContain("application/json");
    expect(plain.body.message.content).toBe(answer);
    expect(await balanceOf(user)).toBe(27);

    // Not a boolean: 422, as any bad field.
    const bad = await chat(user, { message: "hi", stream: "yes" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(["body", "stream"]);
  });

  it("replays a finished streamed turn for a retried Idempotency-Key, charging once", async () => {
    const user = await registerUser(app);
    const answer = "A streamed answer that must not be generated twice.";
    llm.reply(() => answer);
    const headers = { "Idempotency-Key": `stream-${user.userId}` };
    const send = (json: unknown) =>
      call(app, STREAM, { token: user.accessToken, json, headers }).then((r) => ({
        ...r,
        events: parseSse(r.body as string),
      }));
    const asked = llm.requests.length;
    const first = await send({ message: "Stream once" });
    expect(first.status).toBe(200);
    const again = await send({ message: "Stream once" });
    expect(again.status).toBe(200);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(llm.requests.length).toBe(asked + 1);
    const text = (events: SseEvent[]) =>
      events
        .filter((e) => e.event === "delta")
        .map((e) => e.data.text)
        .join("");
    expect(text(again.events)).toBe(answer);
    expect(again.events[0]).toEqual(first.events[0]); // the same conversation
    expect(again.events.at(-1)).toEqual(first.events.at(-1)); // the same message and charge
    expect(await balanceOf(user)).toBe(29);

    // The same key for another request is refused; a failed stream frees its key.
    const other = await call(app, STREAM, {
      token: user.accessToken,
      json: { message: "Something else" },
      headers,
    });
    expect(other.status).toBe(422);
    llm.fail("http-500");
    const failHeaders = { "Idempotency-Key": `stream-fail-${user.userId}` };
    const failed = await call(app, STREAM, {
      token: user.accessToken,
      json: { message: "Retry me" },
      headers: failHeaders,
    });
    expect(failed.status).toBe(503);
    llm.fail(null);
    const retried = await call(app, STREAM, {
      token: user.accessToken,
      json: { message: "Retry me" },
      headers: failHeaders,
    });
    expect(retried.status).toBe(200);
    expect(await balanceOf(user)).toBe(28);
  });

  it("hides the action block from the deltas and reports the action in done", async () => {
    const user = await registerUser(app);
    llm.reply(
      () =>
        'Prepared it for you.\n```action\n{"type":"add_customer","data":{"company":"Gamma SA"}}\n```\nPlease confirm.',
    );
    const res = await streamChat(user, { message: "add customer Gamma SA" });
    const text = res.events
      .filter((e) => e.event === "delta")
      .map((e) => e.data.text)
      .join("");
    expect(text).not.toContain("```");
    expect(text).not.toContain("Gamma SA");
    expect(text).toContain("Prepared it for you.");
    expect(text).toContain("Please confirm.");
    const done = res.events.at(-1)!;
    expect(done.event).toBe("done");
    expect(done.data.action).toEqual({
      id: expect.any(String),
      type: "add_customer",
      data: { company: "Gamma SA" },
    });
    const convo = await conversation(user, res.events[0]!.data.conversation_id);
    expect(convo.body.messages[1]!.content).toBe("Prepared it for you.\n\nPlease confirm.");
  });

  it("streams an FAQ answer as one delta, free", async () => {
    await addFaq({ question: "Warranty", answer: "One year.", keywords: ["warranty"] });
    const user = await registerUser(app);
    const res = await streamChat(user, { message: "Is there a warranty?" });
    expect(res.events.map((e) => e.event)).toEqual(["meta", "delta", "done"]);
    expect(res.events[1]!.data).toEqual({ text: "One year." });
    expect(res.events[2]!.data).toMatchObject({ credits_charged: 0, balance: 30, action: null });
  });

  it("sends an error event, refunds and stores nothing when the provider breaks off", async () => {
    // The fake's own cut-stream resets the socket in the tick it writes, so the cut usually
    // lands before the first chunk (a 503, next test). Here this app's fetch passes the fake's
    // first two events (role, first text) and cuts the connection only once the client has
    // seen a delta: the cut surely happens mid-stream.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gatedFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const upstream = await res.text();
      const events = upstream.split("\n\n").slice(0, 2);
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const event of events) controller.enqueue(encoder.encode(`${event}\n\n`));
          await gate;
          controller.error(new TypeError("terminated"));
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const gatedApp = await ctx.makeApp({ fetch: gatedFetch });
    const user = await registerUser(app);
    llm.reply(() => "This answer is long enough to be cut off after two chunks of text.");
    const res = await gatedApp.request(STREAM, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.accessToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "Tell me a long story" }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("event: delta")) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(text).toContain("event: delta");
    release();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    const events = parseSse(text);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("meta");
    expect(names).not.toContain("done");
    expect(events.at(-1)).toEqual({
      event: "error",
      data: { detail: "The AI service stopped answering; your credits were returned" },
    });
    expect(await balanceOf(user)).toBe(30);
    expect(await messageCount(user.userId)).toBe(0);
  });

  it("sends an error event, refunds and stores nothing when the provider times out mid-answer", async () => {
    // Two events, then silence: the provider's timeout (1 s, its least) aborts the request, and
    // the body errors as fetch's does on abort. A timed-out answer is cut short, not finished.
    const stalledFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const events = (await res.text()).split("\n\n").slice(0, 2);
      const encoder = new TextEncoder();
      const signal = init?.signal;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const event of events) controller.enqueue(encoder.encode(`${event}\n\n`));
          signal?.addEventListener("abort", () => controller.error(signal.reason));
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    await queryRows(
      deps.db,
      sql`update ai_providers set timeout_ms = 1000 where name = 'chat-llm'`,
    );
    try {
      const stalledApp = await ctx.makeApp({ fetch: stalledFetch });
      const user = await registerUser(app);
      llm.reply(() => "This answer is long enough to be cut off after two chunks of text.");
      const res = await stalledApp.request(STREAM, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${user.accessToken}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ message: "Tell me a long story" }),
      });
      expect(res.status).toBe(200);
      const events = parseSse(await res.text());
      expect(events.map((e) => e.event)).not.toContain("done");
      expect(events.at(-1)?.event).toBe("error");
      expect(await balanceOf(user)).toBe(30);
      expect(await messageCount(user.userId)).toBe(0);
    } finally {
      await queryRows(
        deps.db,
        sql`update ai_providers set timeout_ms = 30000 where name = 'chat-llm'`,
      );
    }
  });

  it("charges nothing and stores nothing when the fake cuts its stream", async () => {
    const user = await registerUser(app);
    llm.reply(() => "This answer is long enough to be cut off after two chunks of text.");
    llm.fail("cut-stream");
    const res = await streamChat(user, { message: "Tell me a long story" });
    // Before the first chunk: 503 JSON; after it: an error event. Either way, free and unstored.
    if (res.status === 200) expect(res.events.at(-1)!.event).toBe("error");
    else expect(res.status).toBe(503);
    expect(await balanceOf(user)).toBe(30);
    expect(await messageCount(user.userId)).toBe(0);
  });

  it("answers 402 and 503 as JSON before any stream", async () => {
    const user = await registerUser(app);
    llm.fail("http-500");
    const down = await streamChat(user, { message: "anyone there?" });
    expect(down.status).toBe(503);
    expect(down.res.headers.get("content-type")).toContain("application/json");
    expect(await balanceOf(user)).toBe(30);

    llm.fail(null);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -30,
      actorId: user.userId,
      reason: "t",
    });
    const broke = await streamChat(user, { message: "anyone there?" });
    expect(broke.status).toBe(402);
    expect(broke.res.headers.get("content-type")).toContain("application/json");
    expect(await messageCount(user.userId)).toBe(0);
  });
});

describe("quick questions", () => {
  it("returns the admin-configured list and follows a config change", async () => {
    const user = await registerUser(app);
    const before = await typed(app).get("/api/v1/ai/quick-questions", { token: user.accessToken });
    expectStatus(before, 200);
    expect(before.body.questions).toContain("What should a proforma invoice contain?");
    await queryRows(
      deps.db,
      sql`update system_config set value = ${JSON.stringify(["Q1?", "Q2?"])}::jsonb
          where key = 'ai.quick_questions'`,
    );
    const after = await typed(app).get("/api/v1/ai/quick-questions", { token: user.accessToken });
    expectStatus(after, 200);
    expect(after.body).toEqual({ questions: ["Q1?", "Q2?"] });
    expect((await call(app, "/api/v1/ai/quick-questions")).status).toBe(401);
  });
});

describe("conversations", () => {
  it("lists the caller's conversations last active first, with a preview", async () => {
    const user = await registerUser(app);
    const a = await chatted(user, { message: "first conversation" });
    tick();
    const b = await chatted(user, { message: "second conversation" });
    tick();
    llm.reply(() => "x".repeat(300));
    await chatted(user, { message: "back to the first", conversation_id: a.body.conversation_id });
    const list = await conversations(user, { size: 1 });
    expect(list.body).toMatchObject({ total: 2, page: 1, size: 1 });
    expect(list.body.items[0]).toMatchObject({
      id: a.body.conversation_id,
      title: "first conversation",
      message_count: 4,
      last_message: { role: "assistant", preview: "x".repeat(200) },
    });
    const page2 = await conversations(user, { size: 1, page: 2 });
    expect(page2.body.items.map((c) => c.id)).toEqual([b.body.conversation_id]);
  });

  it("keeps conversations apart between users (404 across users) and deletes", async () => {
    const alice = await registerUser(app);
    const bob = await registerUser(app);
    const mine = await chatted(alice, { message: "alice's private question" });
    const path = `/api/v1/ai/conversations/${mine.body.conversation_id}`;

    expect((await call(app, path, { token: bob.accessToken })).status).toBe(404);
    expect((await call(app, path, { token: bob.accessToken, method: "DELETE" })).status).toBe(404);
    const hijack = await chat(bob, {
      message: "let me in",
      conversation_id: mine.body.conversation_id,
    });
    expect(hijack.status).toBe(404);
    expect(await balanceOf(bob)).toBe(30);
    expect(await messageCount(bob.userId)).toBe(0);
    const bobs = await conversations(bob);
    expect(bobs.body).toMatchObject({ total: 0, items: [] });

    const unknown = await chat(alice, {
      message: "hi",
      conversation_id: "0190a0b0-0000-7000-8000-000000000000",
    });
    expect(unknown.status).toBe(404);

    const del = await typed(app).delete(CONVERSATION, {
      token: alice.accessToken,
      params: { id: mine.body.conversation_id },
    });
    expectStatus(del, 204);
    expect((await call(app, path, { token: alice.accessToken })).status).toBe(404);
    expect(await messageCount(alice.userId)).toBe(0);
    expect((await call(app, path, { token: alice.accessToken, method: "DELETE" })).status).toBe(
      404,
    );
  });
});

describe("validation", () => {
  it("rejects bad input with 422 and writes nothing", async () => {
    const user = await registerUser(app);
    const bad = [
      {},
      { message: "   " },
      { message: "x".repeat(4001) },
      { message: 42 },
      { message: "hi", conversation_id: "not-a-uuid" },
      { message: "hi", extra: true },
    ];
    for (const json of bad) {
      const res = await chat(user, json);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const maybe = await call(app, "/api/v1/ai/chat?stream=maybe", {
      token: user.accessToken,
      json: { message: "hi" },
    });
    expect(maybe.status).toBe(422);
    for (const path of [
      "/api/v1/ai/conversations/not-a-uuid",
      "/api/v1/ai/conversations?size=0",
      "/api/v1/ai/conversations?size=1001",
      "/api/v1/ai/conversations?page=0",
    ]) {
      expect((await call(app, path, { token: user.accessToken })).status, path).toBe(422);
    }
    expect(
      (
        await call(app, "/api/v1/ai/conversations/not-a-uuid", {
          token: user.accessToken,
          method: "DELETE",
        })
      ).status,
    ).toBe(422);
    expect(await messageCount(user.userId)).toBe(0);
    expect(await balanceOf(user)).toBe(30);
    expect((await call(app, CHAT, { json: { message: "hi" } })).status).toBe(401);
  });

  it("needs the CSRF token when the session rides on cookies", async () => {
    const user = await registerUser(app);
    const cookies = { access_token: user.accessToken, csrf_token: user.csrfToken };
    const bare = await call(app, CHAT, { cookies, json: { message: "hello" } });
    expect(bare.status).toBe(403);
    expect(await balanceOf(user)).toBe(30);
    const ok = await typed(app).post(CHAT, {
      cookies,
      csrf: user.csrfToken,
      json: { message: "hello" },
    });
    expectStatus(ok, 200);
    const path = `/api/v1/ai/conversations/${ok.body.conversation_id}`;
    expect((await call(app, path, { cookies, method: "DELETE" })).status).toBe(403);
    expect(
      (await call(app, path, { cookies, csrf: user.csrfToken, method: "DELETE" })).status,
    ).toBe(204);
  });
});
