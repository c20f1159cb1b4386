import type { ModelMessage } from "ai";
import { fromJsonb } from "../../db/sql";
import { ApiError, notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { billed, billedHold } from "../ai/billing";
import { aiUnavailable, runLlmTask, streamLlmTask } from "../ai/routing";
import type { FaqMatch } from "../ai-admin/queries";
import type { OrgFaqMatch } from "../faq/queries";
import { countFaqHit, crossLanguageFaq, ORG_FAQ_THRESHOLD } from "../faq/service";
import { getConfigEntry } from "../system-config/queries/config-entry";
import {
  type AssistantAction,
  actionBlockFilter,
  actionInstructions,
  extractAction,
} from "./actions";
import {
  type ConversationRow,
  chatContext,
  deleteConversationRow,
  getConversationRow,
  insertTurn,
  listConversationRows,
} from "./queries";
import type { ChatInput, MessageOut } from "./schemas";

/** Messages of the conversation sent to the model as context with the new one. */
const HISTORY_MESSAGES = 20;
/** Messages a conversation read returns (the newest, oldest first). */
const DETAIL_MESSAGES = 100;
const TITLE_CHARS = 60;
const PREVIEW_CHARS = 200;

const conversationNotFound = () => notFound("Conversation not found");
const STREAM_FAILED = "The AI service stopped answering; your credits were returned";

/** The first 60 characters of the first message (whole code points). */
function conversationTitle(message: string): string {
  return Array.from(message.replace(/\s+/g, " ").trim()).slice(0, TITLE_CHARS).join("");
}

interface ChatContext {
  conversationOk: boolean;
  faq: FaqMatch | null;
  orgFaq: OrgFaqMatch | null;
  orgFaqLanguages: string[];
  history: ModelMessage[];
  prompt: string;
}

/**
 * Everything a turn needs before any charge, in one query: whether the conversation is the
 * caller's, the best FAQ match, the conversation's last 20 messages (oldest first) and the
 * admin's system prompt.
 */
async function loadChatContext(deps: Deps, userId: string, input: ChatInput): Promise<ChatContext> {
  const row = await chatContext(deps.db, {
    userId,
    conversationId: input.conversation_id ?? null,
    message: input.message,
    history: HISTORY_MESSAGES,
    orgFaqThreshold: ORG_FAQ_THRESHOLD,
  });
  return {
    conversationOk: row.conversation_ok,
    faq: fromJsonb(row.faq),
    orgFaq: fromJsonb(row.org_faq),
    orgFaqLanguages: fromJsonb(row.org_faq_languages) ?? [],
    history: (fromJsonb(row.history) ?? []).map((m) => ({ role: m.role, content: m.content })),
    prompt: row.prompt ?? "",
  };
}

interface Turn {
  userId: string;
  conversationId: string;
  isNew: boolean;
  message: string;
  /** When the user's message arrived. */
  askedAt: string;
  content: string;
  source: "faq" | "llm";
  action: AssistantAction | null;
}

interface StoredTurn {
  message: MessageOut;
  balance: number;
}

/**
 * Writes one turn in one statement: the conversation (created, or its updated_at bumped; a
 * conversation deleted meanwhile yields nothing, a 404), the user's message and the answer.
 * Ids are time-ordered UUIDs drawn in that order, so the user's message sorts first even when
 * both carry the same instant.
 */
async function storeTurn(deps: Deps, turn: Turn): Promise<StoredTurn> {
  // Drawn in this order: the user's message sorts first.
  const userMessageId = deps.ids.uuid();
  const answerId = deps.ids.uuid();
  // A proposal is stored as an action row (ai_actions) its id names: confirm performs it.
  const action = turn.action ? { id: deps.ids.uuid(), ...turn.action } : null;
  const row = await insertTurn(deps.db, {
    ...turn,
    action,
    title: conversationTitle(turn.message),
    userMessageId,
    answerId,
    answeredAt: nowIso(deps),
  });
  if (!row) throw conversationNotFound();
  return {
    message: {
      id: row.id,
      role: "assistant",
      content: turn.content,
      source: turn.source,
      action,
      created_at: iso(row.created_at),
    },
    balance: row.balance ?? 0,
  };
}

export interface ChatRequest {
  userId: string;
  input: ChatInput;
  idempotencyKey?: string;
  ip?: string | null;
}

/** What to start a turn with: the context, or 404 for someone else's conversation. */
async function beginTurn(deps: Deps, request: ChatRequest) {
  const context = await loadChatContext(deps, request.userId, request.input);
  if (!context.conversationOk) throw conversationNotFound();
  const isNew = !request.input.conversation_id;
  const base = {
    userId: request.userId,
    conversationId: request.input.conversation_id ?? deps.ids.uuid(),
    isNew,
    message: request.input.message,
    askedAt: nowIso(deps),
  };
  const llm = {
    system: `${context.prompt}\n\n${actionInstructions()}`.trim(),
    messages: [
      ...context.history,
      { role: "user", content: request.input.message },
    ] as ModelMessage[],
  };
  return { context, base, llm };
}

/** An answer given at once and free: the platform FAQ's or the organisation's. */
interface InstantAnswer {
  answer: string;
  /** The organisation's entry it came from: its hit is counted once the turn is stored. */
  orgFaqId: string | null;
}

/**
 * The free answer of a turn, if any: the platform FAQ (admins'), else the organisation's FAQ
 * as asked, else in another language of its entries (the question translated by the MT tier,
 * faq/service.ts crossLanguageFaq).
 */
async function instantAnswer(
  deps: Deps,
  request: ChatRequest,
  context: ChatContext,
): Promise<InstantAnswer | null> {
  if (context.faq) return { answer: context.faq.answer, orgFaqId: null };
  const org =
    context.orgFaq ??
    (await crossLanguageFaq(deps, request.userId, request.input.message, context.orgFaqLanguages));
  return org ? { answer: org.answer, orgFaqId: org.id } : null;
}

/** Counts an organisation FAQ entry's answer; a failure to count never fails the turn. */
async function countHit(deps: Deps, instant: InstantAnswer) {
  if (!instant.orgFaqId) return;
  try {
    await countFaqHit(deps, instant.orgFaqId);
  } catch (error) {
    deps.logger.warn("faq hit not counted", { error: String(error) });
  }
}

function billedInput(request: ChatRequest) {
  return {
    userId: request.userId,
    operation: "chat" as const,
    requires: "llm" as const,
    ...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
    ...(request.input.quote_id ? { quoteId: request.input.quote_id } : {}),
    ip: request.ip ?? null,
  };
}

function answerOf(text: string) {
  const { content, action } = extractAction(text);
  // Nothing left to show (e.g. only an invalid action block): treated as no answer.
  if (!content) throw aiUnavailable();
  return { content, action };
}

/**
 * One chat turn. An FAQ match (the platform's, else the organisation's in any language of its
 * entries) answers at once and free; otherwise the model answers inside
 * billed() (charge, answer, refund on failure), with the admin's prompt, the action
 * instructions and the last 20 messages as context. Either way both messages are stored.
 */
export async function chat(deps: Deps, request: ChatRequest) {
  const { context, base, llm } = await beginTurn(deps, request);
  const instant = await instantAnswer(deps, request, context);
  if (instant) {
    const stored = await storeTurn(deps, {
      ...base,
      content: instant.answer,
      source: "faq",
      action: null,
    });
    await countHit(deps, instant);
    return respond(base.conversationId, stored, 0, stored.balance);
  }
  const { answer } = await billed(deps, billedInput(request), {
    run: async (charge) => {
      const reply = await runLlmTask(deps, "chat", llm, { userId: request.userId, charge });
      return { reply, answer: answerOf(reply.text) };
    },
    store: async (tx, { reply, answer }) => ({
      reply,
      stored: await storeTurn(tx, { ...base, ...answer, source: "llm" }),
    }),
    describe: ({ reply }) => ({ provider: reply.provider, model: reply.model }),
    answer: ({ stored }, charge) =>
      respond(base.conversationId, stored, charge.cost, charge.balance),
  });
  return answer;
}

function respond(conversationId: string, stored: StoredTurn, charged: number, balance: number) {
  return {
    conversation_id: conversationId,
    message: stored.message,
    action: stored.message.action,
    credits_charged: charged,
    balance,
  };
}

export interface ChatEvent {
  event: "meta" | "delta" | "done" | "error";
  data: Record<string, unknown>;
}

/**
 * A streamed chat turn. Everything that can fail with a plain HTTP error happens before this
 * returns: the 404, the charge (402) and the provider's first chunk (503, refunded). The events
 * then are meta, delta per chunk (the action block held back), done; or, when the provider
 * breaks off, an error event, the credits refunded and nothing stored.
 */
export async function chatStream(
  deps: Deps,
  request: ChatRequest,
): Promise<AsyncGenerator<ChatEvent>> {
  const { context, base, llm } = await beginTurn(deps, request);
  const meta: ChatEvent = { event: "meta", data: { conversation_id: base.conversationId } };
  const done = (stored: StoredTurn, charged: number, balance: number): ChatEvent => ({
    event: "done",
    data: {
      message_id: stored.message.id,
      action: stored.message.action,
      credits_charged: charged,
      balance,
    },
  });
  const faq = await instantAnswer(deps, request, context);
  if (faq) {
    return (async function* faqEvents(): AsyncGenerator<ChatEvent> {
      yield meta;
      yield { event: "delta", data: { text: faq.answer } };
      try {
        const stored = await storeTurn(deps, {
          ...base,
          content: faq.answer,
          source: "faq",
          action: null,
        });
        await countHit(deps, faq);
        yield done(stored, 0, stored.balance);
      } catch (error) {
        yield failure(deps, error, "The answer could not be saved; please try again");
      }
    })();
  }
  // The hold ends with the stream: settled once the turn is stored, refunded if it breaks off or
  // the client goes away first (the generator's finally).
  const hold = await billedHold(deps, billedInput(request));
  const { charge } = hold;
  let stream: Awaited<ReturnType<typeof streamLlmTask>>;
  try {
    stream = await streamLlmTask(deps, "chat", llm, { userId: request.userId, charge });
  } catch (error) {
    await hold.fail("chat failed");
    throw error;
  }
  return (async function* llmEvents(): AsyncGenerator<ChatEvent> {
    try {
      yield meta;
      let stored: StoredTurn;
      try {
        const filter = actionBlockFilter();
        let full = "";
        let shown = "";
        for await (const chunk of stream.chunks) {
          full += chunk;
          const text = filter.push(chunk);
          if (text) {
            shown += text;
            yield { event: "delta", data: { text } };
          }
        }
        const held = filter.end();
        if (held) {
          shown += held;
          yield { event: "delta", data: { text: held } };
        }
        const answer = answerOf(full);
        // Text the model wrote after its action block was held back with it: send it now.
        const sent = shown.trim();
        if (answer.content.startsWith(sent) && answer.content.length > sent.length) {
          const rest = answer.content.slice(sent.length);
          shown += rest;
          yield { event: "delta", data: { text: rest } };
        }
        // The turn, the settled charge and (with a key) the turn kept for a replay commit
        // together: the kept turn is what the client was sent (assistant/routes.ts replays it).
        stored = await hold.settle({
          store: (tx) => storeTurn(tx, { ...base, ...answer, source: "llm" }),
          describe: () => ({ provider: stream.provider, model: stream.model, stream: true }),
          answer: (turn) => ({
            conversation_id: base.conversationId,
            content: shown,
            done: done(turn, charge.cost, charge.balance).data,
          }),
        });
      } catch (error) {
        await endHold(deps, hold.fail("chat failed"));
        yield failure(deps, error);
        return;
      }
      yield done(stored, charge.cost, charge.balance);
    } finally {
      // The client left mid-stream (the generator was closed early): nothing was answered.
      await endHold(deps, hold.fail("chat stream abandoned"));
    }
  })();
}

/** Ending a hold inside the stream never breaks the stream; a failure is logged. */
async function endHold(deps: Deps, ending: Promise<void>) {
  try {
    await ending;
  } catch (error) {
    deps.logger.error("chat hold could not be ended", { error: String(error) });
  }
}

/** The error event: a 404 says so; anything else is the generic provider message. */
function failure(deps: Deps, error: unknown, detail = STREAM_FAILED): ChatEvent {
  if (error instanceof ApiError && error.status === 404) {
    return { event: "error", data: { detail: error.detail } };
  }
  deps.logger.warn("chat stream failed", { error: String(error) });
  return { event: "error", data: { detail } };
}

/** The admin-configured quick questions (system config `ai.quick_questions`). */
export async function quickQuestions(deps: Deps): Promise<{ questions: string[] }> {
  const row = await getConfigEntry(deps.db, { key: "ai.quick_questions" });
  const value = fromJsonb(row?.value ?? null);
  const questions = Array.isArray(value)
    ? value.filter((q): q is string => typeof q === "string")
    : [];
  return { questions };
}

const conversationOut = (row: ConversationRow) => ({
  id: row.id,
  title: row.title,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  message_count: Number(row.message_count),
});

/** The caller's conversations, last active first, each with its latest message's preview. */
export async function listConversations(
  deps: Deps,
  input: { userId: string; page: number; size: number },
) {
  const { rows, total } = await listConversationRows(deps.db, {
    ...input,
    previewChars: PREVIEW_CHARS,
  });
  return {
    items: rows.map((row) => {
      const last = fromJsonb(row.last_message);
      return {
        ...conversationOut(row),
        last_message: last
          ? { role: last.role, preview: last.preview, created_at: iso(last.created_at) }
          : null,
      };
    }),
    total,
    page: input.page,
    size: input.size,
  };
}

/** One conversation of the caller with its last 100 messages, oldest first; else 404. */
export async function getConversation(deps: Deps, userId: string, id: string) {
  const row = await getConversationRow(deps.db, { userId, id, messages: DETAIL_MESSAGES });
  if (!row) throw conversationNotFound();
  return {
    ...conversationOut(row),
    messages: (fromJsonb(row.messages) ?? []).map(
      // Stored by storeTurn: a source of "faq" or "llm", an action as extractAction made it.
      (m): MessageOut => ({
        ...m,
        source: m.source as MessageOut["source"],
        action: m.action as AssistantAction | null,
        created_at: iso(m.created_at),
      }),
    ),
  };
}

/** Deletes one conversation of the caller and its messages (cascade); else 404. */
export async function deleteConversation(deps: Deps, userId: string, id: string) {
  const existed = await deleteConversationRow(deps.db, { userId, id });
  if (!existed) throw conversationNotFound();
}
