import type { OpenAPIHono } from "@hono/zod-openapi";

type Registry = OpenAPIHono["openAPIRegistry"];
type Document = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

/** What each tag groups, shown by Scalar and generated SDKs as the section's introduction. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Operations: "Liveness and readiness probes for load balancers and orchestrators.",
  Accounts: "Registration, sign-in (password, WeChat, guest), sessions, CSRF tokens, profile.",
  Customers: "The seller's customers: records, follow-ups, health scores, import and export.",
  Products: "The seller's product catalogue, with spreadsheet import.",
  Quotations: "Quotations for customers, drafted from inquiries and exported as PDF or Excel.",
  "Exchange rates": "Daily reference exchange rates and conversions.",
  Notifications: "In-app notifications of the signed-in user.",
  AI: "Translation with reply suggestions, and AI drafts; billed in credits.",
  "AI assistant": "The chat assistant (JSON or a text/event-stream) and its conversations.",
  Marketing: "Generated marketing copy and its engagement statistics.",
  Discovery: "Searching the web for prospective buyers, and the records kept from it.",
  Agent: "Multi-step prospecting pipelines run in the background.",
  Credits: "Credit balance, history, packages, plans, purchases and subscriptions.",
  Payments: "Payment orders and the callbacks of the payment providers.",
  Growth: "Referrals, seller certification and invoices.",
  Webhooks: "Inbound webhooks of messaging platforms (signed by the sender).",
  Jobs: "Background jobs delivered by the queue (signed by the sender).",
  Admin: "Administration: users, statistics, usage logs, audit log, system settings.",
};

/** Every tag the operations use, in order of first use, each with its description. */
export function documentTags(registry: Registry) {
  const names = new Set<string>();
  for (const definition of registry.definitions) {
    if (definition.type === "route") for (const tag of definition.route.tags ?? []) names.add(tag);
  }
  return [...names].map((name) => ({
    name,
    description:
      TAG_DESCRIPTIONS[name] ??
      (name.startsWith("Admin: ") ? `Administration of ${name.slice(7)}.` : `${name} operations.`),
  }));
}

/**
 * Formats by the API's naming conventions (docs/API.md): `*_at` is an RFC 3339 timestamp,
 * `date` and `*_date` a calendar day, `id` a UUID, `email` and `*_email` an address. Applied
 * to the finished document so every schema, including ones a route spells as a plain string,
 * says so; a schema that already names a format keeps it.
 */
const FORMAT_BY_NAME: [RegExp, string][] = [
  [/_at$/, "date-time"],
  [/^(date|.+_date)$/, "date"],
  [/^id$/, "uuid"],
  [/^(email|.+_email)$/, "email"],
];

type Schema = { type?: unknown; format?: string; anyOf?: Schema[]; [key: string]: unknown };

function isStringSchema(schema: Schema): boolean {
  return schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string"));
}

function addFormat(schema: Schema, format: string) {
  if (schema.format || schema.enum || schema.const !== undefined || schema.pattern) return;
  if (isStringSchema(schema)) schema.format = format;
  for (const member of schema.anyOf ?? []) {
    if (member.type === "string") addFormat(member, format);
  }
}

function applyNamingFormats(node: unknown) {
  if (Array.isArray(node)) {
    for (const item of node) applyNamingFormats(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const object = node as Record<string, unknown>;
  const properties = object.properties as Record<string, Schema> | undefined;
  if (properties && typeof properties === "object") {
    for (const [name, schema] of Object.entries(properties)) {
      const format = FORMAT_BY_NAME.find(([pattern]) => pattern.test(name))?.[1];
      if (format && schema && typeof schema === "object") addFormat(schema, format);
    }
  }
  // Query and path parameters follow the same conventions as body fields.
  if (typeof object.in === "string" && typeof object.name === "string" && object.schema) {
    const format = FORMAT_BY_NAME.find(([pattern]) => pattern.test(object.name as string))?.[1];
    if (format) addFormat(object.schema as Schema, format);
  }
  for (const value of Object.values(object)) applyNamingFormats(value);
}

export function finishDocument(document: Document): Document {
  applyNamingFormats(document.paths);
  applyNamingFormats(document.components);
  applyNamingFormats(document.webhooks);
  return document;
}
