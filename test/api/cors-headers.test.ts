import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * What a cross-origin frontend's script can read, and a Vary that names each header once
 * (hono/cors appends Origin to the Vary the cacheable routes already carry).
 */
const ORIGIN = "https://app.example";
const ctx = await createTestContext({ env: { CORS_ORIGINS: ORIGIN } });
const { app } = ctx;

describe("CORS response headers", () => {
  it("a cacheable answer to a listed origin says Vary: Origin once", async () => {
    for (const path of ["/api/v1/openapi.json", "/api/v1/credits/plans"]) {
      const { res } = await call(app, path, { headers: { Origin: ORIGIN } });
      expect(res.status, path).toBe(200);
      const names = (res.headers.get("Vary") ?? "").split(/\s*,\s*/).map((n) => n.toLowerCase());
      expect(
        names.filter((n) => n === "origin"),
        `${path}: ${res.headers.get("Vary")}`,
      ).toHaveLength(1);
    }
  });

  it("exposes Location, Idempotent-Replayed, RateLimit-*, Content-Disposition and X-Request-Id", async () => {
    const { res } = await call(app, "/api/v1/credits/plans", { headers: { Origin: ORIGIN } });
    const exposed = (res.headers.get("Access-Control-Expose-Headers") ?? "").split(/\s*,\s*/);
    for (const name of [
      "Location",
      "Idempotent-Replayed",
      "RateLimit-Limit",
      "RateLimit-Remaining",
      "RateLimit-Reset",
      "Content-Disposition",
      "X-Request-Id",
      "Allow",
    ]) {
      expect(exposed).toContain(name);
    }
  });

  it("the OpenAPI document declares RateLimit-* and Content-Disposition where they are sent", async () => {
    const { body: doc } = await call(app, "/api/v1/openapi.json");
    const limited = doc.paths["/api/v1/payments/create-order"].post.responses;
    expect(Object.keys(limited["201"].headers ?? {})).toEqual(
      expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
    );
    expect(Object.keys(limited["429"].headers)).toEqual(
      expect.arrayContaining(["Retry-After", "RateLimit-Limit"]),
    );
    const pdf = doc.paths["/api/v1/quotations/{id}/export"].get.responses["200"];
    expect(Object.keys(pdf.headers ?? {})).toContain("Content-Disposition");
    const sheet = doc.paths["/api/v1/customers/export"].get.responses["200"];
    expect(Object.keys(sheet.headers ?? {})).toContain("Content-Disposition");
  });
});
