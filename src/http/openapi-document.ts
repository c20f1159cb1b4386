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

type Json = Record<string, unknown>;
const COMPONENT_REF = "#/components/schemas/";
const isObject = (node: unknown): node is Json =>
  node !== null && typeof node === "object" && !Array.isArray(node);

/** Whether a schema (through its $refs) has a property with a `default`. */
function hasDefaultedProperty(schemas: Json, node: unknown, seen = new Set<string>()): boolean {
  if (Array.isArray(node)) return node.some((item) => hasDefaultedProperty(schemas, item, seen));
  if (!isObject(node)) return false;
  if (typeof node.$ref === "string" && node.$ref.startsWith(COMPONENT_REF)) {
    const name = node.$ref.slice(COMPONENT_REF.length);
    if (seen.has(name)) return false;
    seen.add(name);
    return hasDefaultedProperty(schemas, schemas[name], seen);
  }
  if (isObject(node.properties)) {
    for (const property of Object.values(node.properties)) {
      if (isObject(property) && "default" in property) return true;
    }
  }
  return Object.values(node).some((value) => hasDefaultedProperty(schemas, value, seen));
}

/**
 * A request body's schema with every component that has a defaulted property written in place
 * (titled with the component's name). A default on a request field is what the server fills in
 * when the field is left out, so the field is optional to send (it is not in `required`); but
 * generators read a `default` in a shared component as "always present" (openapi-typescript's
 * default `defaultNonNullable` made 22 such request fields required), while a schema written in
 * the request body itself keeps them optional. Components without defaults stay references.
 */
function inlineDefaultedComponents(schemas: Json, node: unknown, path: string[] = []): unknown {
  if (Array.isArray(node))
    return node.map((item) => inlineDefaultedComponents(schemas, item, path));
  if (!isObject(node)) return node;
  if (typeof node.$ref === "string" && node.$ref.startsWith(COMPONENT_REF)) {
    const name = node.$ref.slice(COMPONENT_REF.length);
    // A recursive schema stays a reference (none of the request bodies is one today).
    if (path.includes(name) || !hasDefaultedProperty(schemas, node)) return node;
    const copy = inlineDefaultedComponents(schemas, structuredClone(schemas[name]), [
      ...path,
      name,
    ]);
    return { title: name, ...(copy as Json) };
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      inlineDefaultedComponents(schemas, value, path),
    ]),
  );
}

/** Every `$ref` name under `node`. */
function referencedComponents(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencedComponents(item, into);
  else if (isObject(node)) {
    if (typeof node.$ref === "string" && node.$ref.startsWith(COMPONENT_REF)) {
      into.add(node.$ref.slice(COMPONENT_REF.length));
    }
    for (const value of Object.values(node)) referencedComponents(value, into);
  }
  return into;
}

/**
 * Request fields with defaults stay optional in generated clients: request bodies carry the
 * schemas that have defaults in place (inlineDefaultedComponents), and a component no longer
 * referenced anywhere after that is dropped. Response schemas keep their references: a default
 * there is a value the answer always has. Test: test/contract/optional-defaults.test.ts.
 */
function requestBodiesInInputMode(document: Document) {
  const schemas = (document.components?.schemas ?? {}) as Json;
  const inlined = new Set<string>();
  for (const media of requestMediaObjects(document)) {
    for (const name of referencedComponents(media.schema)) inlined.add(name);
    media.schema = inlineDefaultedComponents(schemas, media.schema);
  }
  // Drop the components the request bodies used to reference and nothing references now.
  for (let changed = true; changed; ) {
    const used = referencedComponents({ paths: document.paths, components: document.components });
    const unused = [...inlined].filter((name) => name in schemas && !used.has(name));
    for (const name of unused) delete schemas[name];
    changed = unused.length > 0;
  }
}

/** The media objects (`{schema}`) of every operation's request body. */
function* requestMediaObjects(document: Document): Generator<Json & { schema: unknown }> {
  for (const item of Object.values(document.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      const content =
        isObject(operation) && isObject(operation.requestBody) && operation.requestBody.content;
      if (!isObject(content)) continue;
      for (const media of Object.values(content)) {
        if (isObject(media) && media.schema !== undefined)
          yield media as Json & { schema: unknown };
      }
    }
  }
}

export function finishDocument(document: Document): Document {
  requestBodiesInInputMode(document);
  applyNamingFormats(document.paths);
  applyNamingFormats(document.components);
  applyNamingFormats(document.webhooks);
  return document;
}
