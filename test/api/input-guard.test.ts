import { describe, expect, it } from "vitest";
import { call, randomEmail, randomIp, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app } = ctx;
const user = await registerUser(app);

const refusedAt = (res: { status: number; body: any }, loc: (string | number)[]) => {
  expect(res.status).toBe(422);
  expect(res.body.detail).toMatch(/control characters/);
  expect(res.body.errors).toEqual([
    expect.objectContaining({ loc, type: "string_control_character" }),
  ]);
};

describe("control characters at the edge", () => {
  it("a NUL in an unauthenticated JSON body is a 422 naming the field, and nothing is created", async () => {
    const email = randomEmail();
    const res = await call(app, "/api/v1/auth/register", {
      json: { email, password: "secret12", name: "N\u0000" },
      ip: randomIp(),
    });
    refusedAt(res, ["body", "name"]);
    const login = await call(app, "/api/v1/auth/login", {
      json: { email, password: "secret12" },
      ip: randomIp(),
    });
    expect(login.status).toBe(401);
  });

  it("finds it in nested values and keys", async () => {
    const nested = await call(app, "/api/v1/customers", {
      token: user.accessToken,
      json: { company: "Acme", tags: ["ok", "bad\u0007"] },
    });
    refusedAt(nested, ["body", "tags", 1]);
    const key = await call(app, "/api/v1/customers", {
      token: user.accessToken,
      json: { company: "Acme", "x\u0000": 1 },
    });
    refusedAt(key, ["body", "x\u0000"]);
  });

  it("refuses NUL in a query parameter and in a path segment", async () => {
    refusedAt(await call(app, "/api/v1/customers?q=%00", { token: user.accessToken }), [
      "query",
      "q",
    ]);
    refusedAt(await call(app, "/api/v1/payments/orders/%00", { token: user.accessToken }), [
      "path",
    ]);
  });

  it("keeps tab, line feed and carriage return, which notes have", async () => {
    const res = await call(app, "/api/v1/customers", {
      token: user.accessToken,
      json: { company: "Acme\tGmbH", notes: "line one\r\nline two" },
    });
    expect(res.status).toBe(201);
    expect(res.body.notes).toBe("line one\r\nline two");
  });

  it("leaves signed callbacks and uploads to their own checks", async () => {
    // Stripe is not configured here: the route itself answers, the guard did not refuse it.
    const webhook = await call(app, "/api/v1/payments/stripe/webhook", {
      json: { data: { object: { customer_details: { name: "Li\u0000" } } } },
    });
    expect(webhook.status).toBe(503);
    const upload = await call(app, "/api/v1/customers/import", { json: { file: "\u0000" } });
    expect(upload.status).toBe(401);
  });
});
