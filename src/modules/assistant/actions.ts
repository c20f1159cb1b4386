import { z } from "@hono/zod-openapi";
import { FOLLOWUP_CHANNELS, INCOTERMS } from "../../db/schema";
import { CustomerBody, FollowupBody } from "../customers/schemas";
import { QuotationBody } from "../quotations/schemas";

/**
 * Action extraction: the model is told to append one fenced block
 *
 *   ```action
 *   {"type": "add_customer", "data": {...}}
 *   ```
 *
 * when the user asks for something the app can do. The block is cut out of the visible answer
 * and its data validated; what survives is stored as a proposal (ai_actions, its `id` in the
 * message's action) and nothing else is written until the user confirms it: POST
 * /api/v1/ai/actions/{id}/confirm performs it once through its owning service (confirm.ts).
 *
 * To add an action type: add an entry to ACTION_TYPES (its instruction line for the model, a
 * `validate` that returns clean data or null, and `body`, the owning route's body schema the
 * confirmed data must pass), add it to AI_ACTION_TYPES (db/schema/faq.ts, with a migration for
 * the check), its performer in confirm.ts, and test it in test/api/h6-actions.test.ts.
 */

const ACTION_MARKER = "```action";

export interface AssistantAction {
  /** Set once stored: the id POST /api/v1/ai/actions/{id}/confirm takes. */
  id?: string;
  type: ActionType;
  data: Record<string, unknown>;
}

interface ActionDefinition {
  /** One line of the system prompt: when to emit the action and the shape of its data. */
  instruction: string;
  /** Clean data, or null when nothing usable remains. Invalid fields are dropped, not fatal. */
  validate(data: Record<string, unknown>): Record<string, unknown> | null;
  /** The owning route's body: what the proposal with the user's edits must pass to be done. */
  body: z.ZodType;
}

/** The customer fields the assistant may propose, all from the customer create body. */
const CUSTOMER_FIELDS = [
  "company",
  "contact_name",
  "email",
  "phone",
  "whatsapp",
  "country",
  "notes",
] as const;

function validateCustomer(data: Record<string, unknown>): Record<string, unknown> | null {
  const clean: Record<string, string> = {};
  for (const field of CUSTOMER_FIELDS) {
    let value = data[field];
    if (typeof value === "number" && Number.isFinite(value)) value = String(value);
    if (typeof value !== "string") continue;
    const schema = CustomerBody.shape[field] as z.ZodType;
    const parsed = schema.safeParse(value);
    if (parsed.success && typeof parsed.data === "string" && parsed.data !== "") {
      clean[field] = parsed.data;
    }
  }
  // The whole proposal must be a valid create body (at least a company, contact or email).
  return CustomerBody.safeParse(clean).success ? clean : null;
}

/**
 * The fields of `data` that each pass their own schema of `shape`; null when none does. A
 * proposal may lack what the user adds when confirming (a customer_id, a price): the whole body
 * is checked then.
 */
function keepValidFields(
  shape: Record<string, z.ZodType>,
  data: Record<string, unknown>,
): Record<string, unknown> | null {
  const clean: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (!Object.hasOwn(data, field) || data[field] === undefined) continue;
    const parsed = schema.safeParse(data[field]);
    if (parsed.success && parsed.data !== undefined) clean[field] = data[field];
  }
  return Object.keys(clean).length > 0 ? clean : null;
}

/** A follow-up's body as its route takes it (POST /customers/{id}/followups) plus the customer. */
const FollowupActionBody = FollowupBody.extend({
  customer_id: z.uuid({ error: "Not a valid id" }),
}).strict();

const ACTION_TYPES = {
  add_customer: {
    instruction:
      'add_customer: when the user asks to add, save or create a customer (a buyer or contact), append {"type":"add_customer","data":{"company":string,"contact_name":string,"email":string,"phone":string,"whatsapp":string,"country":string,"notes":string}} with only the fields the user gave.',
    validate: validateCustomer,
    body: CustomerBody,
  },
  log_followup: {
    instruction: `log_followup: when the user asks to log or record a contact with a customer, append {"type":"log_followup","data":{"customer_id":string (only an id you were given),"channel":one of ${FOLLOWUP_CHANNELS.map((c) => `"${c}"`).join(", ")},"note":string,"contacted_at":ISO 8601 date-time,"next_followup_at":ISO 8601 date-time}} with only the fields the user gave.`,
    validate: (data) => keepValidFields(FollowupActionBody.shape, data),
    body: FollowupActionBody,
  },
  create_quotation: {
    instruction: `create_quotation: when the user asks to make or draft a quotation, append {"type":"create_quotation","data":{"customer_id":string (only an id you were given),"currency":ISO 4217 code,"incoterm":one of ${INCOTERMS.join(", ")},"items":[{"name":string,"quantity":integer,"unit_price":integer minor units}],"notes":string}} with only what the user gave.`,
    validate: (data) => keepValidFields(QuotationBody.shape, data),
    body: QuotationBody,
  },
} satisfies Record<string, ActionDefinition>;

export type ActionType = keyof typeof ACTION_TYPES;

/**
 * The data an action is performed with: the proposal with the user's `edits` over it, checked
 * by the owning route's body schema (the zod error, for a 422, when it does not pass).
 */
export function actionBody(
  type: ActionType,
  data: Record<string, unknown>,
  edits: Record<string, unknown> | undefined,
) {
  return ACTION_TYPES[type].body.safeParse({ ...data, ...edits });
}

/** Appended to the admin's `ai.prompt`: how to propose actions. */
export function actionInstructions(): string {
  const lines = Object.values(ACTION_TYPES).map((a) => `- ${a.instruction}`);
  return [
    "The app can carry out some requests after the user confirms them. When the user asks for " +
      "one of the following, answer briefly in text (say what you prepared and that they " +
      "should confirm it), then append exactly one fenced block at the very end of your " +
      "answer, in this form:",
    `${ACTION_MARKER}\n{"type": "...", "data": {...}}\n\`\`\``,
    "The block must hold valid JSON. Never claim the action was already done. Never emit a " +
      "block unless the user asked for the action. Actions:",
    ...lines,
  ].join("\n");
}

function parseAction(raw: string): AssistantAction | null {
  let value: unknown;
  try {
    value = JSON.parse(raw.trim());
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const { type, data } = value as { type?: unknown; data?: unknown };
  if (typeof type !== "string" || !Object.hasOwn(ACTION_TYPES, type)) return null;
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const clean = ACTION_TYPES[type as ActionType].validate(data as Record<string, unknown>);
  return clean ? { type: type as ActionType, data: clean } : null;
}

/** Said instead when the model's answer was nothing but the action block. */
const ACTION_ONLY_CONTENT = "I prepared this for you. Please review and confirm it.";

/**
 * Splits a model answer into the visible content and the proposed action: every ```action
 * block (an unclosed one runs to the end) is removed from the text; the first one that parses
 * and validates is the action.
 */
export function extractAction(text: string): { content: string; action: AssistantAction | null } {
  let action: AssistantAction | null = null;
  let visible = "";
  let rest = text;
  for (;;) {
    const start = rest.indexOf(ACTION_MARKER);
    if (start < 0) {
      visible += rest;
      break;
    }
    visible += rest.slice(0, start);
    const bodyStart = start + ACTION_MARKER.length;
    const end = rest.indexOf("```", bodyStart);
    const body = end < 0 ? rest.slice(bodyStart) : rest.slice(bodyStart, end);
    action ??= parseAction(body);
    if (end < 0) break;
    rest = rest.slice(end + 3);
  }
  let content = visible.replace(/\n{3,}/g, "\n\n").trim();
  if (!content && action) content = ACTION_ONLY_CONTENT;
  return { content, action };
}

/**
 * Streams text while holding back anything from the first ```action marker on: `push` returns
 * the text safe to show now (a tail that could be the start of the marker waits for the next
 * chunk); `end` returns what was held back when no marker came.
 */
export function actionBlockFilter() {
  let pending = "";
  let inBlock = false;
  return {
    push(chunk: string): string {
      if (inBlock) return "";
      pending += chunk;
      const at = pending.indexOf(ACTION_MARKER);
      if (at >= 0) {
        inBlock = true;
        const out = pending.slice(0, at);
        pending = "";
        return out;
      }
      let keep = Math.min(pending.length, ACTION_MARKER.length - 1);
      while (keep > 0 && !ACTION_MARKER.startsWith(pending.slice(pending.length - keep))) keep--;
      const out = pending.slice(0, pending.length - keep);
      pending = pending.slice(pending.length - keep);
      return out;
    },
    end(): string {
      const out = inBlock ? "" : pending;
      pending = "";
      return out;
    },
  };
}
