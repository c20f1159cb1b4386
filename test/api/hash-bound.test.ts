import { describe, expect, it } from "vitest";
import { call, randomEmail, randomIp } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext({
  env: { PASSWORD_HASH_CONCURRENCY: "1", PASSWORD_HASH_QUEUE: "0" },
});

describe("bounded password hashing", () => {
  it("sheds excess hashing with 503 instead of queueing without end, and creates nothing for it", async () => {
    const emails = Array.from({ length: 6 }, () => randomEmail());
    const results = await Promise.all(
      emails.map((email) =>
        call(ctx.app, "/api/v1/auth/register", {
          json: { email, password: "secret1" },
          ip: randomIp(),
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses).toContain(201);
    expect(statuses).toContain(503);
    for (const r of results.filter((r) => r.status === 503)) {
      expect(r.res.headers.get("Retry-After")).toBeTruthy();
      expect(r.body.detail).toMatch(/busy/);
    }
    // A shed registration left no account behind: the email is still free.
    const shed = emails[statuses.indexOf(503)]!;
    const retry = await call(ctx.app, "/api/v1/auth/register", {
      json: { email: shed, password: "secret1" },
      ip: randomIp(),
    });
    expect(retry.status).toBe(201);
  });
});
