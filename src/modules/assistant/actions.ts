import type { z } from "@hono/zod-openapi";
import { CustomerBody } from "../customers/schemas";

/**
 * Action extraction: the model is told to append one fenced block
 *
 *   ```action
 *   {"type": "add_customer", "data": {...}}
 *   ```
 *
 * when the user asks for something the app can do. The block is cut out of the visible answer
 * and its data validated; what survives is returned to the client as a proposal only (nothing
 * is written: for add_customer the client confirms by calling POST /api/v1/customers itself).
 *
 * To add an action type: add an entry to ACTION_TYPES (its instruction line for the model and a
 * `validate` that returns clean data or null), add the type to ActionSchema's enum in
 * schemas.ts, and test it in test/api/assistant.test.ts.
 */

const ACTION_MARKER = "```action";

export interface AssistantAction {
  type: ActionType;
  data: Record<string, unknown>;
}

interface ActionDefinition {
  /** One line of the system prompt: when to emit the action and the shape of its data. */
  instruction: string;
  /** Clean data, or null when nothing usable remains. Invalid fields are dropped, not fatal. */
  validate(data: Record<string, unknown>): Record<string, unknown> | null;
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

const ACTION_TYPES = {
  add_customer: {
    instruction:
      'add_customer: when the user asks to add, save or create a customer (a buyer or contact), append {"type":"add_customer","data":{"company":string,"contact_name":string,"email":string,"phone":string,"whatsapp":string,"country":string,"notes":string}} with only the fields the user gave.',
    validate: validateCustomer,
  },
} satisfies Record<string, ActionDefinition>;

type ActionType = keyof typeof ACTION_TYPES;

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
