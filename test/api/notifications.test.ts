import { describe, expect, it } from "vitest";
import { notify } from "../../src/modules/notifications/service";
import { api, call, expectStatus, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;

async function seed(userId: string, n: number, prefix = "n") {
  for (let i = 0; i < n; i++) {
    await notify(deps, { userId, kind: "test", title: `${prefix}${i}`, body: `body ${i}` });
    await new Promise((r) => setTimeout(r, 2)); // distinct created_at for a stable order
  }
}

describe("notifications", () => {
  it("lists the caller's own, newest first, paged, with an unread count and a filter", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    await seed(user.userId, 3);
    await seed(other.userId, 2, "other");
    // Typed by the OpenAPI document (test/support/client.ts `api()`, ADR 0095).
    const list = await api(app).get("/api/v1/notifications", {
      token: user.accessToken,
      query: { size: 2 },
    });
    expectStatus(list, 200);
    expect(list.body).toMatchObject({ total: 3, unread: 3, page: 1, size: 2 });
    expect(list.body.items.map((n) => n.title)).toEqual(["n2", "n1"]);
    expect(list.body.items[0]).toMatchObject({ kind: "test", is_read: false, read_at: null });
    const page2 = await api(app).get("/api/v1/notifications", {
      token: user.accessToken,
      query: { size: 2, page: 2 },
    });
    expectStatus(page2, 200);
    expect(page2.body.items.map((n) => n.title)).toEqual(["n0"]);
    const bad = await call(app, "/api/v1/notifications?is_read=maybe", { token: user.accessToken });
    expect(bad.status).toBe(422);
    const anonymous = await call(app, "/api/v1/notifications");
    expect(anonymous.status).toBe(401);
  });

  it("marks only the caller's own notifications read or unread", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    await seed(user.userId, 3);
    await seed(other.userId, 1, "other");
    const mine = (await call(app, "/api/v1/notifications", { token: user.accessToken })).body;
    const theirs = (await call(app, "/api/v1/notifications", { token: other.accessToken })).body;
    const [first, second] = mine.items.map((n: { id: string }) => n.id);
    const theirId = theirs.items[0].id;

    const marked = await call(app, "/api/v1/notifications", {
      method: "PATCH",
      token: user.accessToken,
      json: { ids: [first, second, theirId], is_read: true },
    });
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({ updated: 2, unread: 1 });
    // The other user's notification is untouched.
    const theirsAfter = await call(app, "/api/v1/notifications", { token: other.accessToken });
    expect(theirsAfter.body).toMatchObject({ unread: 1 });
    expect(theirsAfter.body.items[0].is_read).toBe(false);

    const read = await call(app, "/api/v1/notifications?is_read=true", { token: user.accessToken });
    expect(read.body.items.map((n: { id: string }) => n.id).sort()).toEqual([first, second].sort());
    expect(read.body.items[0].read_at).toEqual(expect.any(String));
    const unread = await call(app, "/api/v1/notifications?is_read=false", {
      token: user.accessToken,
    });
    expect(unread.body).toMatchObject({ total: 1, unread: 1 });

    const again = await call(app, "/api/v1/notifications", {
      method: "PATCH",
      token: user.accessToken,
      json: { ids: [first], is_read: false },
    });
    expect(again.body).toEqual({ updated: 1, unread: 2 });

    const invalid = await call(app, "/api/v1/notifications", {
      method: "PATCH",
      token: user.accessToken,
      json: { ids: ["not-a-uuid"], is_read: true },
    });
    expect(invalid.status).toBe(422);
    const empty = await call(app, "/api/v1/notifications", {
      method: "PATCH",
      token: user.accessToken,
      json: { ids: [], is_read: true },
    });
    expect(empty.status).toBe(422);
  });

  it("marks all read for the caller only", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    await seed(user.userId, 2);
    await seed(other.userId, 2, "other");
    const all = await call(app, "/api/v1/notifications/read-all", {
      method: "POST",
      token: user.accessToken,
    });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ updated: 2, unread: 0 });
    const mine = await call(app, "/api/v1/notifications", { token: user.accessToken });
    expect(mine.body).toMatchObject({ total: 2, unread: 0 });
    const theirs = await call(app, "/api/v1/notifications", { token: other.accessToken });
    expect(theirs.body).toMatchObject({ total: 2, unread: 2 });
  });

  it("stores one notification per dedupe key", async () => {
    const user = await registerUser(app);
    const input = { userId: user.userId, kind: "test", title: "once", body: "b", dedupeKey: "k1" };
    expect(await notify(deps, input)).toEqual({ created: true });
    expect(await notify(deps, input)).toEqual({ created: false });
    const list = await call(app, "/api/v1/notifications", { token: user.accessToken });
    expect(list.body.total).toBe(1);
  });

  it("requires the CSRF token when the session rides on cookies", async () => {
    const user = await registerUser(app);
    const res = await call(app, "/api/v1/notifications/read-all", {
      method: "POST",
      cookies: { access_token: user.accessToken },
    });
    expect(res.status).toBe(403);
  });
});
