import { describe, expect, it } from "vitest";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * A method the path does not serve is 405 with `Allow` listing the ones it does (RFC 9110
 * 15.5.6), read from the route table on a miss; a path nobody serves stays 404.
 */
const ctx = await createTestContext();
const { app } = ctx;

describe("405 Method Not Allowed", () => {
  it("a wrong method on a collection: 405, Allow, code method_not_allowed", async () => {
    const { status, res, body } = await call(app, "/api/v1/customers", { method: "PUT" });
    expect(status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD, POST");
    expect(body).toMatchObject({ code: "method_not_allowed" });
    expect(body.detail).toMatch(/PUT/);
  });

  it("a path with a parameter: the item's methods", async () => {
    const id = crypto.randomUUID();
    const { status, res } = await call(app, `/api/v1/customers/${id}`, { method: "POST" });
    expect(status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD, PATCH, DELETE");
  });

  it("is answered before authentication, like the 404 it replaces", async () => {
    const user = await registerUser(app);
    const { status, res } = await call(app, "/api/v1/auth/login", {
      method: "GET",
      token: user.accessToken,
    });
    expect(status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });

  it("an unknown path is still 404 without Allow; a served method is untouched", async () => {
    const missing = await call(app, "/api/v1/no-such-thing", { method: "DELETE" });
    expect(missing.status).toBe(404);
    expect(missing.res.headers.get("Allow")).toBeNull();
    expect(missing.body).toEqual({ detail: "Not found", code: "not_found" });
    expect((await call(app, "/health")).status).toBe(200);
  });

  it("HEAD of a GET route is served, not refused", async () => {
    const res = await app.request("/health", { method: "HEAD" });
    expect(res.status).toBe(200);
  });
});
