import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../scripts/openapi-document";

// Issue #21: openapi-typescript turned the request fields the server defaults into required
// ones. Its rule (defaultNonNullable, on by default): a property with a `default` is required
// in the generated type unless it is in `required`'s complement AND sits in a request body or
// a parameter itself; a `default` inside a shared component (#/components/schemas) makes the
// field required wherever the component is used. This walks every request body and parameter
// as the generator would and counts the defaulted fields a client would be forced to send.
type Json = Record<string, any>;
let document: Json;

beforeAll(async () => {
  document = (await openApiDocument()) as Json;
});

interface Field {
  where: string;
  forced: boolean;
}

/** Every defaulted property under a request schema; `inComponent`: reached through a $ref. */
function defaultedFields(
  node: unknown,
  where: string,
  inComponent: boolean,
  out: Field[],
  seen: Set<string>,
) {
  if (Array.isArray(node)) {
    for (const item of node) defaultedFields(item, where, inComponent, out, seen);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Json;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").at(-1)!;
    if (seen.has(name)) return;
    const target = document.components.schemas[name];
    expect(target, schema.$ref).toBeDefined();
    defaultedFields(target, `${where} > ${name}`, true, out, new Set([...seen, name]));
    return;
  }
  if (schema.properties && typeof schema.properties === "object") {
    const required: string[] = schema.required ?? [];
    for (const [key, property] of Object.entries(schema.properties as Json)) {
      if (property && typeof property === "object" && "default" in property) {
        out.push({ where: `${where}.${key}`, forced: inComponent || required.includes(key) });
      }
    }
  }
  for (const value of Object.values(schema)) defaultedFields(value, where, inComponent, out, seen);
}

function requestFields(): Field[] {
  const out: Field[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const media of Object.values((op.requestBody?.content ?? {}) as Json)) {
        defaultedFields((media as Json).schema, where, false, out, new Set());
      }
      for (const parameter of op.parameters ?? []) {
        if (parameter.$ref || !parameter.schema || !("default" in parameter.schema)) continue;
        out.push({ where: `${where} ?${parameter.name}`, forced: parameter.required === true });
      }
    }
  }
  return out;
}

describe("request fields with defaults", () => {
  it("are optional in generated clients: none is required or inside a shared component", () => {
    const fields = requestFields();
    // Not vacuous: the translate, product, quotation, agent and admin bodies and the list
    // queries (page, size) have them.
    expect(fields.length).toBeGreaterThan(40);
    expect(fields.map((f) => f.where)).toEqual(
      expect.arrayContaining([
        "POST /api/v1/translate.with_replies",
        "POST /api/v1/agent/start.max_leads",
        "POST /api/v1/quotations.discount",
        "GET /api/v1/customers ?page",
        "GET /api/v1/customers ?size",
      ]),
    );
    expect(fields.filter((f) => f.forced).map((f) => f.where)).toEqual([]);
  });

  it("keep their documented default", () => {
    const translate = document.paths["/api/v1/translate"].post.requestBody.content[
      "application/json"
    ].schema as Json;
    expect(translate.title).toBe("TranslateRequest");
    expect(translate.properties.with_replies.default).toBe(false);
    expect(translate.required).not.toContain("with_replies");
  });
});
