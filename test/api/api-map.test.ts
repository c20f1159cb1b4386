import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTestContext } from "../support/harness";

// The API map (docs/API.md, kept in step with the upstream map) is a contract clients and
// outside tests rely on: every route its tables list must be in the served OpenAPI document
// under the same method and path.
const API_MAP = readFileSync(new URL("../../docs/API.md", import.meta.url), "utf8")
  .split("\n")
  .flatMap((line) => {
    const row = /^\| ([A-Z]+(?:, [A-Z]+)*) \| (\/\S*) \|/.exec(line);
    return row ? [`${row[1]} ${row[2]}`] : [];
  })
  .join("\n");

const { app } = await createTestContext();

/** `/a/{id}/b` and `/a/:id/b` are the same route: compare with every parameter as `:`. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, ":");

describe("API map", () => {
  it("serves every route of API.md under its method and path", async () => {
    const doc = (await (await app.request("/api/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const served = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        served.add(`${method.toUpperCase()} ${shape(path)}`);
      }
    }
    expect(API_MAP.split("\n").length).toBeGreaterThan(70);
    const missing: string[] = [];
    for (const line of API_MAP.trim().split("\n")) {
      const path = line.slice(line.lastIndexOf(" ") + 1);
      for (const method of line.slice(0, line.lastIndexOf(" ")).split(", ")) {
        if (!served.has(`${method} ${shape(path)}`)) missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
