import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { SSEStreamingApi } from "hono/streaming";
import { requireAuth } from "../../http/auth";
import { featureGateResponses, planLimitResponses, requireFeature } from "../../http/entitlements";
import type { AppEnv } from "../../http/env";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  retryAfterHeader,
} from "../../http/errors";
import {
  claimRequestKey,
  honoursIdempotencyKey,
  IDEMPOTENCY_HEADER,
  idempotentRequest,
} from "../../http/idempotency";
import { requestIp } from "../../http/limits";
import {
  type LiveStream,
  liveSSE,
  openLiveStream,
  STREAM_END_DETAIL,
} from "../../http/live-stream";
import {
  IdParam,
  jsonResponse as json,
  jsonBody,
  notFoundResponse,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { completeIdempotencyKey, releaseIdempotencyKey } from "../credits/idempotency";
import { confirmAction } from "./confirm";
import {
  ActionConfirmBody,
  ActionConfirmResult,
  ChatBody,
  ChatEventStream,
  ChatQuery,
  ChatResponse,
  ChatStreamEventSchema,
  ConversationDetail,
  ConversationsPage,
  ConversationsQuery,
  QuickQuestionsSchema,
} from "./schemas";
import {
  type ChatEvent,
  chat,
  chatStream,
  deleteConversation,
  getConversation,
  listConversations,
  quickQuestions,
} from "./service";

const tags = ["AI assistant"];
const noSuchConversation = notFoundResponse("No such conversation of the caller");

/**
 * Idempotency-Key on chat: JSON answers go through the shared middleware; a streamed turn
 * claims the key itself (streamedChat below), keeps the finished turn, and a retry gets it again
 * as events instead of a second answer and charge.
 */
const idempotentUnlessStreaming: MiddlewareHandler<AppEnv> = honoursIdempotencyKey(
  async function idempotentChat(c, next) {
    if (await wantsStream(c)) return next();
    return idempotentRequest(c, next);
  },
);

/**
 * Whether a chat asks for a stream: `?stream=true` or `stream: true` in the JSON body (read
 * from Hono's body cache, which the validator reads again). A body that is not JSON is not a
 * stream; the validator answers 422 for it.
 */
async function wantsStream(c: Context<AppEnv>): Promise<boolean> {
  if (c.req.query("stream") === "true") return true;
  const body: unknown = await c.req.json().catch(() => null);
  return (
    typeof body === "object" && body !== null && (body as { stream?: unknown }).stream === true
  );
}

const chatRoute = createRoute({
  method: "post",
  path: "/api/v1/ai/chat",
  tags,
  security,
  summary: "Ask the assistant: an FAQ match answers instantly and free, else the model (billed)",
  description:
    "Charges `credits.costs.chat` unless an FAQ matches. May return `action` (e.g. " +
    "`add_customer` with customer fields) for the user to confirm; nothing is saved by it. " +
    "With `stream=true` in the query or `stream: true` in the body the answer is `text/event-stream`: `meta` {conversation_id}, `delta` " +
    "{text} per chunk, then `done` {message_id, action, credits_charged, balance}, or `error` " +
    "{detail} (credits refunded, nothing stored). 402/404/503 come as JSON before a stream. " +
    "A stream ends with its session: within about a second of a logout, a password change, the " +
    "account being disabled or the access token expiring, an `error` {detail} ends it (the " +
    "turn is abandoned and refunded). 429 (JSON, Retry-After) when the caller already holds " +
    "`STREAMS_PER_USER` open streams (streamed chat and agent events together, default 5). " +
    "Send an Idempotency-Key header to make a retry charge once (a streamed turn is replayed).",
  middleware: [requireAuth, requireFeature("ai_assistant"), idempotentUnlessStreaming] as const,
  request: {
    query: ChatQuery,
    body: { required: true, content: { "application/json": { schema: ChatBody } } },
  },
  responses: {
    200: {
      description: "The answer (JSON), or its event stream with stream=true",
      content: {
        "application/json": { schema: ChatResponse },
        "text/event-stream": {
          schema: ChatEventStream,
          "x-event-schema": { $ref: "#/components/schemas/ChatStreamEvent" },
        },
      },
    },
    402: errorResponse(ErrorSchema, "Not enough credits (nothing written)"),
    ...noSuchConversation,
    409: errorResponse(ErrorSchema, "The same Idempotency-Key is still being processed"),
    429: {
      ...errorResponse(
        ErrorSchema,
        "With stream=true: the caller already holds its maximum of open streams",
      ),
      headers: retryAfterHeader,
    },
    503: errorResponse(ErrorSchema, "No AI provider answered; the credits were returned"),
    ...csrfErrorResponses,
    ...featureGateResponses("ai_assistant"),
  },
});

const quickQuestionsRoute = createRoute({
  method: "get",
  path: "/api/v1/ai/quick-questions",
  tags,
  security,
  summary: "The admin-configured quick questions (system config ai.quick_questions)",
  middleware: [requireAuth] as const,
  responses: { 200: json(QuickQuestionsSchema, "Quick questions"), ...authErrorResponses },
});

const listConversationsRoute = createRoute({
  method: "get",
  path: "/api/v1/ai/conversations",
  tags,
  security,
  summary: "The caller's conversations, last active first, with the latest message's preview",
  middleware: [requireAuth] as const,
  request: { query: ConversationsQuery },
  responses: { 200: json(ConversationsPage, "A page of conversations"), ...authErrorResponses },
});

const getConversationRoute = createRoute({
  method: "get",
  path: "/api/v1/ai/conversations/{id}",
  tags,
  security,
  summary: "One conversation of the caller with its last 100 messages, oldest first",
  middleware: [requireAuth] as const,
  request: { params: IdParam },
  responses: {
    200: json(ConversationDetail, "The conversation"),
    ...noSuchConversation,
    ...authErrorResponses,
  },
});

const deleteConversationRoute = createRoute({
  method: "delete",
  path: "/api/v1/ai/conversations/{id}",
  tags,
  security,
  summary: "Delete one conversation of the caller and its messages",
  middleware: [requireAuth] as const,
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted" },
    ...noSuchConversation,
    ...csrfErrorResponses,
  },
});

const confirmActionRoute = createRoute({
  method: "post",
  path: "/api/v1/ai/actions/{id}/confirm",
  tags,
  security,
  summary: "Perform an action the assistant proposed to the caller, once",
  description:
    "Performs the `action` of an assistant message (add_customer, log_followup, " +
    "create_quotation) through the owning route's service, with `edits` over its data, checked " +
    "by that route's body schema (422, nothing done). Once only: a later confirm (also a " +
    "concurrent one) answers 200 with the first outcome and `replayed: true`, doing nothing. " +
    "Errors of the owning route pass through (e.g. 404 for a customer the caller does not see, " +
    "the customer plan limit). Another user's action, a colleague's included, is 404.",
  middleware: [requireAuth] as const,
  request: { params: IdParam, body: jsonBody(ActionConfirmBody) },
  responses: {
    200: json(ActionConfirmResult, "Performed now, or before (replayed)"),
    ...notFoundResponse("No such action of the caller (or a customer it names)"),
    409: errorResponse(ErrorSchema, "The owning route refused (e.g. a pool customer)"),
    ...csrfErrorResponses,
    ...planLimitResponses("customers"),
  },
});

/** What a finished streamed turn keeps for its Idempotency-Key. */
interface StoredStreamTurn {
  conversation_id: string;
  content: string;
  done: Record<string, unknown>;
}

/** A kept turn told again: its meta, its whole text as one delta, its done. */
function replayedTurn(turn: StoredStreamTurn): ChatEvent[] {
  return [
    { event: "meta", data: { conversation_id: turn.conversation_id } },
    { event: "delta", data: { text: turn.content } },
    { event: "done", data: turn.done },
  ];
}

/** A streamed turn as the client has been sent it so far. */
interface SentTurn {
  conversation_id: string;
  content: string;
  done: Record<string, unknown> | null;
}

/**
 * Sends a turn's events to the client, noting them in `turn`, until they end or the session does
 * (src/http/live-stream.ts). Then the client gets an `error` event and the turn is abandoned:
 * the generator stops at its next step and its finally refunds the hold (docs/adr/0070); this
 * returns once it has stopped.
 */
async function relayTurn(
  stream: SSEStreamingApi,
  live: LiveStream,
  events: AsyncGenerator<ChatEvent>,
  turn: SentTurn,
) {
  for (;;) {
    const next = await live.next(events);
    if (next === null) {
      const stopped = events.return(undefined).catch(() => undefined);
      const detail = STREAM_END_DETAIL[live.end ?? "session_ended"];
      try {
        await stream.writeSSE({ event: "error", data: JSON.stringify({ detail }) });
      } finally {
        // The generator may be mid-step (settling the turn, which keeps it under the key): the
        // caller frees the key only once it has stopped, or a turn committed after the key was
        // freed would be charged again by the client's retry.
        await stopped;
      }
      return;
    }
    if (next.done) return;
    const { event, data } = next.value;
    if (event === "meta") turn.conversation_id = String(data.conversation_id);
    if (event === "delta") turn.content += String(data.text);
    if (event === "done") turn.done = data;
    await stream.writeSSE({ event, data: JSON.stringify(data) });
  }
}

/** The AI assistant: chat (FAQ first, SSE with stream=true), quick questions, conversations. */
export function createAssistantRoutes() {
  const router = createRouter();
  // Named by the stream's `x-event-schema`, which the generator does not follow itself.
  router.openAPIRegistry.register("ChatStreamEvent", ChatStreamEventSchema);
  router.openapi(chatRoute, async (c) => {
    const deps = c.get("deps");
    const { stream: bodyStream, ...input } = c.req.valid("json");
    const request = {
      userId: c.get("auth").userId,
      input,
      idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
      ip: requestIp(c),
    };
    // Either place asks for the stream (ADR 0091).
    if (!c.req.valid("query").stream && bodyStream !== true) {
      return c.json(await chat(deps, request), 200);
    }
    // A stream slot first: 429 (src/http/live-stream.ts) before a key is claimed or a credit held.
    const live = openLiveStream(c);
    const key = request.idempotencyKey;
    let events: AsyncGenerator<ChatEvent>;
    try {
      const claim = key
        ? await claimRequestKey(c, key, `POST ${c.req.path}?stream=true\n${await c.req.text()}`)
        : undefined;
      if (claim?.kind === "replay") {
        c.header("Idempotent-Replayed", "true");
        const replay = replayedTurn(claim.body as StoredStreamTurn);
        return liveSSE(c, live, async (stream) => {
          for (const { event, data } of replay) {
            await stream.writeSSE({ event, data: JSON.stringify(data) });
          }
        });
      }
      try {
        // 404, 402 and an unreachable provider are thrown here, as JSON, before the stream opens.
        events = await chatStream(deps, request);
      } catch (error) {
        if (key) await releaseIdempotencyKey(deps, { userId: request.userId, key });
        throw error;
      }
    } catch (error) {
      live.release();
      throw error;
    }
    return liveSSE(c, live, async (stream) => {
      const turn: SentTurn = { conversation_id: "", content: "", done: null };
      try {
        await relayTurn(stream, live, events, turn);
      } finally {
        if (key) {
          // Only a finished turn is kept for replay; a failed one frees the key for a retry.
          if (turn.done) {
            await completeIdempotencyKey(deps, {
              userId: request.userId,
              key,
              status: 200,
              body: turn,
            });
          } else {
            await releaseIdempotencyKey(deps, { userId: request.userId, key });
          }
        }
      }
    });
  });
  router.openapi(confirmActionRoute, async (c) =>
    c.json(
      await confirmAction(
        c.get("deps"),
        c.get("auth").userId,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
  );
  router.openapi(quickQuestionsRoute, async (c) =>
    c.json(await quickQuestions(c.get("deps")), 200),
  );
  router.openapi(listConversationsRoute, async (c) => {
    const query = c.req.valid("query");
    return c.json(
      await listConversations(c.get("deps"), { ...query, userId: c.get("auth").userId }),
      200,
    );
  });
  router.openapi(getConversationRoute, async (c) =>
    c.json(
      await getConversation(c.get("deps"), c.get("auth").userId, c.req.valid("param").id),
      200,
    ),
  );
  router.openapi(deleteConversationRoute, async (c) => {
    await deleteConversation(c.get("deps"), c.get("auth").userId, c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}
