import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";

/** The last active admin is kept (issue 20, ADR 0084): by a request, or by two at once. */

const ctx = await createTestContext();
const { app, database } = ctx;

const patch = (by: Session, target: Session, json: unknown) =>
  call(app, `/api/v1/admin/users/${target.userId}`, {
    method: "PATCH",
    token: by.accessToken,
    json,
  });

async function activeAdmins() {
  const rows = await queryRows<{ id: string }>(
    database.db,
    sql`select id from users where role = 'admin' and status = 'active'`,
  );
  return rows.map((r) => r.id);
}

/** Fresh accounts made admin, and nobody else an admin (each test owns the whole set). */
async function admins(n: number) {
  await database.db.execute(sql`update users set role = 'user' where role = 'admin'`);
  const made: Session[] = [];
  for (let i = 0; i < n; i++) made.push(await registerUser(app));
  await database.db.execute(
    sql`update users set role = 'admin' where id in (${sql.join(
      made.map((s) => sql`${s.userId}::uuid`),
      sql`, `,
    )})`,
  );
  return made;
}

beforeEach(async () => {
  await database.db.execute(sql`update users set status = 'active' where status = 'disabled'`);
});

describe("the last active admin", () => {
  it("cannot demote or disable themselves: 409 with a clear detail, nothing changes", async () => {
    const [only] = (await admins(1)) as [Session];
    for (const body of [{ role: "user" }, { status: "disabled" }, { role: "user", plan: "pro" }]) {
      const res = await patch(only, only, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.detail).toMatch(/last active admin/);
    }
    expect(await activeAdmins()).toEqual([only.userId]);
    // Changes that keep them an active admin still go through.
    expect((await patch(only, only, { plan: "pro" })).status).toBe(200);
    expect((await patch(only, only, { role: "admin", status: "active" })).status).toBe(200);
    const audit = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from admin_audit_log
          where target_id = ${only.userId} and action = 'user.update' and changes ? 'role'`,
    );
    expect(audit[0]!.n).toBe(0);
  });

  it("a disabled admin does not count: the one active admin is still the last", async () => {
    const [a, b] = (await admins(2)) as [Session, Session];
    expect((await patch(a, b, { status: "disabled" })).status).toBe(200);
    const self = await patch(a, a, { role: "user" });
    expect(self.status).toBe(409);
    expect(await activeAdmins()).toEqual([a.userId]);
  });

  it("with another active admin left, demoting or disabling one (oneself too) is fine", async () => {
    const [a, b, c] = (await admins(3)) as [Session, Session, Session];
    expect((await patch(a, b, { role: "user" })).status).toBe(200);
    expect((await patch(a, a, { status: "disabled" })).status).toBe(200);
    expect(await activeAdmins()).toEqual([c.userId]);
    // The disabled admin's own session ended with it; the one left cannot go.
    expect((await patch(c, c, { role: "user" })).status).toBe(409);
  });

  it("an unknown user is still a 404, a user who is no admin is patched as before", async () => {
    const [a] = (await admins(1)) as [Session];
    const missing = await call(app, `/api/v1/admin/users/${crypto.randomUUID()}`, {
      method: "PATCH",
      token: a.accessToken,
      json: { role: "user" },
    });
    expect(missing.status).toBe(404);
    const plain = await registerUser(app);
    expect((await patch(a, plain, { status: "disabled" })).status).toBe(200);
  });

  it(`two admins demoting or disabling each other at once leave one${onPostgres ? " (PostgreSQL, concurrent)" : ""}`, async () => {
    const changes = [
      [{ role: "user" }, { role: "user" }],
      [{ status: "disabled" }, { role: "user" }],
      [{ status: "disabled" }, { status: "disabled" }],
    ];
    for (let round = 0; round < 8; round++) {
      const [x, y] = changes[round % changes.length]!;
      const [a, b] = (await admins(2)) as [Session, Session];
      const results = await Promise.all([patch(a, b, x), patch(b, a, y)]);
      const statuses = results.map((r) => r.status).sort();
      // One goes through; the other is refused by the statement (409) or, when it came after
      // the other had disabled its caller, by the session or role check (401/403).
      expect(
        statuses.filter((s) => s === 200),
        `round ${round}: ${statuses}`,
      ).toHaveLength(1);
      expect(statuses.every((s) => [200, 401, 403, 409].includes(s))).toBe(true);
      expect(await activeAdmins(), `round ${round}`).toHaveLength(1);
    }
  });
});
