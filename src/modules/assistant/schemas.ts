import { z } from "@hono/zod-openapi";
import { AI_ACTION_TYPES } from "../../db/schema";
import { booleanQuery } from "../../http/query";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { quoteIdField } from "../credits/quote-field";

/** Longest message a user may send in one turn (characters). */
const MAX_MESSAGE_CHARS = 4000;

export const ChatBody = z
  .object({
    message: z
      .string()
      .trim()
      .min(1, { error: "Write a message" })
      .max(MAX_MESSAGE_CHARS, { error: `At most ${MAX_MESSAGE_CHARS} characters` })
      .openapi({ example: "Add customer Acme GmbH, contact Anna Weber, anna@acme.de, Germany" }),
    conversation_id: z.uuid({ error: "Not a valid id" }).optional().openapi({
      description: "Continue this conversation of the caller; omit to start a new one",
    }),
    stream: z.boolean({ error: "true or false" }).optional().openapi({
      description:
        "true: answer as text/event-stream, the same as `?stream=true` (either one streams)",
    }),
    quote_id: quoteIdField,
  })
  .strict()
  .openapi("ChatInput");
/** A turn's input to the service: the body without the transport choice `stream`. */
export type ChatInput = Omit<z.infer<typeof ChatBody>, "stream">;

export const ChatQuery = z.object({
  stream: booleanQuery(
    "true: answer as text/event-stream (events meta, delta, done, or error) instead of JSON; " +
      "`stream: true` in the body does the same",
  ),
});

const ActionSchema = z
  .object({
    id: z
      .string()
      .optional()
      .openapi({
        description:
          "Perform it with POST /api/v1/ai/actions/{id}/confirm (absent on actions proposed " +
          "before actions could be confirmed)",
      }),
    type: z.enum(AI_ACTION_TYPES),
    data: z.record(z.string(), z.unknown()).openapi({
      description:
        "The proposed body of the owning route: add_customer, the customer create body " +
        "(company, contact_name, email, phone, whatsapp, country, notes); log_followup, the " +
        "follow-up body plus customer_id; create_quotation, the quotation create body (possibly " +
        "partial: the confirm's `edits` complete it). Nothing is saved until it is confirmed",
    }),
  })
  .openapi("AssistantAction");

export const ActionConfirmBody = z
  .object({
    edits: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({
        description:
          "Fields over the proposal's data; the result must pass the owning route's body " +
          "schema (422 naming `body.<field>` otherwise, nothing done)",
      }),
  })
  .strict()
  .openapi("ActionConfirmInput");
export type ActionConfirmInput = z.infer<typeof ActionConfirmBody>;

export const ActionConfirmResult = z
  .object({
    action_id: z.string(),
    type: z.enum(AI_ACTION_TYPES),
    performed_at: z.string(),
    result_id: z.string().openapi({
      description: "The customer, follow-up or quotation the action made",
    }),
    result: z.record(z.string(), z.unknown()).openapi({
      description: "What the owning route answers: a Customer, a FollowupResult or a Quotation",
    }),
    replayed: z.boolean().openapi({
      description:
        "true: the action had already been performed; this is that first outcome and nothing " +
        "was done now (the edits of this call are ignored)",
    }),
  })
  .openapi("ActionConfirmResult");

const MESSAGE_SOURCES = ["faq", "llm"] as const;

const MessageSchema = z
  .object({
    id: z.string(),
    role: z.enum(["user", "assistant"]),
    content: z.string(),
    source: z.enum(MESSAGE_SOURCES).nullable().openapi({
      description: "Assistant messages: faq (instant, free) or llm; null for user messages",
    }),
    action: ActionSchema.nullable(),
    created_at: z.string(),
  })
  .openapi("AssistantMessage");
export type MessageOut = z.infer<typeof MessageSchema>;

export const ChatResponse = z
  .object({
    conversation_id: z.string(),
    message: MessageSchema,
    action: ActionSchema.nullable().openapi({
      description: "A proposal for the user to confirm; the same as message.action",
    }),
    credits_charged: z.number().int().openapi({ description: "0 for an FAQ answer" }),
    balance: z.number().int(),
  })
  .openapi("ChatResult");

export const QuickQuestionsSchema = z
  .object({ questions: z.array(z.string()) })
  .openapi("QuickQuestions");

const ConversationSummary = z
  .object({
    id: z.string(),
    title: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    message_count: z.number().int(),
    last_message: z
      .object({
        role: z.enum(["user", "assistant"]),
        preview: z.string().openapi({ description: "The first 200 characters" }),
        created_at: z.string(),
      })
      .nullable(),
  })
  .openapi("ConversationSummary");

export const ConversationsQuery = pageQuery();
export const ConversationsPage = pageSchema(ConversationSummary).openapi("ConversationPage");

export const ConversationDetail = z
  .object({
    id: z.string(),
    title: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    message_count: z.number().int(),
    messages: z.array(MessageSchema).openapi({
      description: "The last 100 messages, oldest first",
    }),
  })
  .openapi("Conversation");

/**
 * The events of `POST /ai/chat?stream=true` (text/event-stream): each is an `event:` line
 * naming it and a `data:` line holding its JSON. Registered as schemas so generated clients
 * type the parsed events; the wire body itself is text.
 */
export const ChatStreamEventSchema = z
  .discriminatedUnion("event", [
    z.object({
      event: z.literal("meta"),
      data: z.object({ conversation_id: z.string() }),
    }),
    z.object({
      event: z.literal("delta"),
      data: z.object({ text: z.string().openapi({ description: "The next chunk of the answer" }) }),
    }),
    z.object({
      event: z.literal("done"),
      data: z.object({
        message_id: z.string(),
        action: ActionSchema.nullable(),
        credits_charged: z.number().int(),
        balance: z.number().int(),
      }),
    }),
    z.object({
      event: z.literal("error"),
      data: z.object({
        detail: z.string().openapi({ description: "Why the turn broke off (credits refunded)" }),
      }),
    }),
  ])
  .openapi("ChatStreamEvent");

/** The text/event-stream answer of POST /api/v1/ai/chat with stream=true (events: ChatStreamEvent). */
export const ChatEventStream = z.string().openapi({
  description:
    "Server-sent events, each `event: <name>` and `data: <JSON>`: one `meta`, " +
    "`delta`s, then `done` or `error`; the parsed events are `ChatStreamEvent`s.",
  example:
    'event: meta\ndata: {"conversation_id":"0190..."}\n\nevent: delta\n' +
    'data: {"text":"Hello"}\n\nevent: done\ndata: {"message_id":"0190...",' +
    '"action":null,"credits_charged":1,"balance":99}\n\n',
});
