import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../scripts/openapi-document";
import { issueLocation } from "../../src/http/errors";
import { ruleOperationId } from "../../src/http/operation-ids";

// What clients generate SDKs from: names, security, headers, error bodies and formats that
// say what the server does (http/contract.ts, http/openapi-document.ts).
type Json = Record<string, any>;
let document: Json;
const operations: { method: string; path: string; op: Json }[] = [];

beforeAll(async () => {
  document = (await openApiDocument()) as Json;
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) operations.push({ method, path, op });
  }
});

const refName = (ref: string) => ref.split("/").at(-1);

describe("the OpenAPI document", () => {
  it("names every operation once, in camelCase; the /agent aliases are deprecated", () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, op } of operations.filter((o) => o.path.startsWith("/agent/"))) {
      expect(op.deprecated, path).toBe(true);
      expect(op.operationId, path).toMatch(/^legacy/);
    }
    expect(ruleOperationId("get", "/api/v1/customers/{id}/health")).toBe("getCustomersByIdHealth");
  });

  it("declares security on every operation: bearer, or the cookie plus CSRF on writes", () => {
    for (const { method, path, op } of operations) {
      expect(op.security, `${method} ${path}`).toBeDefined();
      if (op.security.length === 0) continue;
      const cookie = op.security.find((s: Json) => "cookieAuth" in s);
      expect(cookie, `${method} ${path}`).toBeDefined();
      expect("csrfToken" in cookie, `${method} ${path}`).toBe(method !== "get");
    }
    const me = document.paths["/api/v1/auth/me"].get;
    expect(me.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(document.paths["/api/v1/auth/login"].post.security).toEqual([]);
  });

  it("declares Idempotency-Key where it is honoured, with the 409 a repeat in flight gets", () => {
    const withKey = operations.filter(({ op }) =>
      (op.parameters ?? []).some((p: Json) => p.$ref === "#/components/parameters/IdempotencyKey"),
    );
    const paths = withKey.map(({ method, path }) => `${method} ${path}`);
    expect(paths).toEqual(
      expect.arrayContaining(["post /api/v1/translate", "post /api/v1/ai/chat"]),
    );
    for (const { op } of withKey) expect(op.responses[409].headers["Retry-After"]).toBeDefined();
    expect(document.components.parameters.IdempotencyKey.name).toBe("Idempotency-Key");
  });

  it("declares the error bodies the server sends: 402 with its numbers, 503 with Retry-After", () => {
    const translate = document.paths["/api/v1/translate"].post.responses;
    expect(refName(translate[402].content["application/json"].schema.$ref)).toBe(
      "InsufficientCredits",
    );
    for (const { method, path, op } of operations) {
      expect(op.responses[500], `${method} ${path}`).toBeDefined();
      if (op.responses[503]) {
        expect(op.responses[503].headers["Retry-After"], `${method} ${path}`).toBeDefined();
      }
    }
    const importRejected = document.paths["/api/v1/customers/import"].post.responses[422];
    const shapes = importRejected.content["application/json"].schema.anyOf.map((s: Json) =>
      refName(s.$ref),
    );
    expect(shapes).toEqual(["ImportRejected", "ValidationError"]);
  });

  it("gives timestamps, days, ids and addresses their formats", () => {
    const customer = document.components.schemas.Customer.properties;
    expect(customer.created_at.format).toBe("date-time");
    expect(customer.id.format).toBe("uuid");
    const schemas = JSON.stringify(document.components.schemas);
    const untyped = [...schemas.matchAll(/"(\w+_at)":\{"type":"string"(?!,"format")/g)];
    expect(untyped.map((m) => m[1])).toEqual([]);
  });

  it("describes the chat stream's events, the tags, the servers and the licence", () => {
    const stream = document.paths["/api/v1/ai/chat"].post.responses[200].content;
    expect(stream["text/event-stream"]).toBeDefined();
    const events = document.components.schemas.ChatStreamEvent.oneOf.map(
      (e: Json) => e.properties.event.enum[0],
    );
    expect(events).toEqual(["meta", "delta", "done", "error"]);
    expect(document.servers).toHaveLength(1);
    expect(document.info.license.name).toBeTruthy();
    const used = new Set(operations.flatMap(({ op }) => op.tags ?? []));
    const declared = document.tags.map((t: Json) => t.name);
    expect([...used].filter((t) => !declared.includes(t))).toEqual([]);
    expect(document.tags.every((t: Json) => t.description)).toBe(true);
  });
});

describe("422 locations", () => {
  it("speak FastAPI's body, query, path and header", () => {
    expect(["json", "form", "query", "param", "header"].map(issueLocation)).toEqual([
      "body",
      "body",
      "query",
      "path",
      "header",
    ]);
  });
});
