import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../../scripts/openapi-document";

/**
 * Checks each response the HTTP suites receive against the served OpenAPI document: a declared
 * status, a declared content type, and a JSON body matching its schema, with fields the schema
 * does not name reported too (every object is closed for this check). Off unless
 * OPENAPI_CONTRACT is set: `report` appends violations to OPENAPI_CONTRACT_FILE (default
 * node_modules/.cache/openapi/contract-violations.jsonl), `strict` fails the call.
 */
const MODE = process.env.OPENAPI_CONTRACT;
const REPORT_FILE =
  process.env.OPENAPI_CONTRACT_FILE ?? "node_modules/.cache/openapi/contract-violations.jsonl";

type Json = Record<string, unknown>;
interface Operation {
  pattern: RegExp;
  literalSegments: number;
  template: string;
  methods: Json;
}

interface Contract {
  ajv: Ajv2020;
  operations: Operation[];
  validators: Map<string, ValidateFunction>;
}

let contract: Promise<Contract> | undefined;

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** Components an `allOf` extends: closing one would refuse the fields its extension adds. */
function extendedComponents(node: unknown, found = new Set<string>(), inAllOf = false) {
  if (Array.isArray(node)) {
    for (const item of node) extendedComponents(item, found, inAllOf);
  } else if (node !== null && typeof node === "object") {
    const ref = (node as Json).$ref;
    if (inAllOf && typeof ref === "string") found.add(ref);
    for (const [key, value] of Object.entries(node)) {
      extendedComponents(value, found, key === "allOf");
    }
  }
  return found;
}

/**
 * Every object schema closed, so a field the document does not name is reported; not the
 * parts of an `allOf`, nor the components one extends (JSON Schema cannot close those).
 */
function closeObjects(node: unknown, open: Set<string>, path = "#", inAllOf = false): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      closeObjects(item, open, `${path}/${i}`, inAllOf);
    });
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Json;
  if (
    schema.properties &&
    schema.additionalProperties === undefined &&
    !inAllOf &&
    !open.has(path)
  ) {
    schema.additionalProperties = false;
  }
  for (const [key, value] of Object.entries(schema)) {
    closeObjects(value, open, `${path}/${pointer(key)}`, key === "allOf");
  }
}

async function loadContract(): Promise<Contract> {
  const document = structuredClone((await openApiDocument()) as Json);
  const open = extendedComponents(document);
  closeObjects(document.components, open, "#/components");
  closeObjects(document.paths, open, "#/paths");
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: "openapi.json" });
  const operations = Object.entries(document.paths as Record<string, Json>).map(
    ([template, methods]) => ({
      template,
      methods,
      literalSegments: template.split("/").filter((s) => s && !s.startsWith("{")).length,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }),
  );
  // A literal segment wins over a parameter (`/customers/export` before `/customers/{id}`).
  operations.sort((a, b) => b.literalSegments - a.literalSegments);
  return { ajv, operations, validators: new Map() };
}

export interface ContractViolation {
  method: string;
  path: string;
  status: number;
  problem: string;
}

export async function checkResponse(
  method: string,
  url: string,
  res: Response,
  body: unknown,
): Promise<ContractViolation[]> {
  if (!MODE) return [];
  contract ??= loadContract();
  const { ajv, operations, validators } = await contract;
  const path = new URL(url, "http://test").pathname;
  const verb = method.toLowerCase();
  const operation = operations.find((o) => o.pattern.test(path) && o.methods[verb]);
  // The document and its reader page describe the API; they are not operations of it.
  if (path === "/api/v1/openapi.json" || path.startsWith("/docs")) return [];
  const at = { method, path: operation?.template ?? path, status: res.status };
  // Unknown paths (404 from notFound), a method the path does not serve (405 with Allow) and
  // routes a test mounts itself are not the API's.
  if (!operation) {
    if (res.status === 404 || res.status === 405 || path.startsWith("/test/")) return [];
    return report([{ ...at, problem: "undeclared operation" }]);
  }
  const responses = (operation.methods[verb] as Json).responses as Record<string, Json>;
  const status = String(res.status);
  const declared = responses[status] ? status : responses.default ? "default" : undefined;
  if (!declared) return report([{ ...at, problem: `undeclared status ${status}` }]);
  const content = responses[declared]!.content as Record<string, unknown> | undefined;
  const type = res.headers.get("content-type")?.split(";")[0]?.trim();
  if (!content || !type || res.status === 204) return [];
  if (!content[type]) return report([{ ...at, problem: `undeclared content type ${type}` }]);
  if (type !== "application/json") return [];
  const ref = `openapi.json#/${pointer("paths", operation.template, verb, "responses", declared, "content", type, "schema")}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  if (validate(body)) return [];
  return report(
    (validate.errors ?? []).map((error) => ({
      ...at,
      problem: `${error.instancePath || "/"} ${error.message}${
        error.params && "additionalProperty" in error.params
          ? ` (${String(error.params.additionalProperty)})`
          : ""
      }`,
    })),
  );
}

function report(violations: ContractViolation[]): ContractViolation[] {
  if (MODE === "strict") {
    throw new Error(`OpenAPI contract: ${violations.map((v) => JSON.stringify(v)).join("\n")}`);
  }
  mkdirSync(dirname(REPORT_FILE), { recursive: true });
  appendFileSync(REPORT_FILE, violations.map((v) => `${JSON.stringify(v)}\n`).join(""));
  return violations;
}
