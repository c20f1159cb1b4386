import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { chargeCredits, getBalance, grantCredits } from "../../src/modules/credits/service";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { startFakeSmtp, tokenOf } from "../fakes/smtp";
import { api, call, expectStatus, registerUser, type Session } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// Review of issue #22: an organisation its last member left (accept without bring_data) must
// stay out of reach (ADR 0100 "Consequences"): a link it sent before must not let anyone in,
// as a member of an organisation with no owner and every record and credit left there.

const FRONTEND = "https://app.trade.example";
const smtp = await startFakeSmtp();
afterAll(() => smtp.close());
const ctx = await createTestContext({
  env: { FRONTEND_URL: FRONTEND },
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: "no-reply@trade.example" }) },
});
const { app, database, deps } = ctx;
const db = database.db;
const typed = api(app);
// Seats for a company of five and its invitations; agent runs for a solo account's run.
await db.execute(
  sql`update subscription_plans set limits = limits || '{"seats": 100, "agent_runs_per_month": 100}'::jsonb`,
);

const write = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });

async function verified(user: Session) {
  await db.execute(sql`update users set email_verified_at = now() where id = ${user.userId}::uuid`);
  return user;
}

async function invite(by: Session, email: string, role: "admin" | "manager" | "member") {
  const answer = await typed.post("/api/v1/org/invitations", {
    ...write(by),
    json: { email, role },
  });
  expectStatus(answer, 201);
  const mail = await smtp.waitFor(
    (m) =>
      m.envelopeTo.includes(email.toLowerCase()) &&
      m.links.some((l) => l.startsWith(`${FRONTEND}/invite?token=`)),
  );
  return tokenOf(mail);
}

const accept = (user: Session, token: string, bringData = false) =>
  call(app, "/api/v1/org/invitations/accept", {
    ...write(user),
    json: { token, bring_data: bringData },
  });

describe("accepting an invitation of an organisation its last member left", () => {
  for (const bringData of [false, true]) {
    it(`is refused once its owner joined another company (bring_data ${bringData})`, async () => {
      const { owner: companyOwner } = await createCompany(ctx);
      const solo = await verified(await registerUser(app, { name: "Solo" }));
      const friend = await verified(await registerUser(app, { name: "Friend" }));
      const abandonedOrg = await orgIdOf(database, solo);
      // The solo owner invites a friend as admin, then joins a company before the friend accepts.
      const friendToken = await invite(solo, friend.email, "admin");
      const soloToken = await invite(companyOwner, solo.email, "member");
      expect((await accept(solo, soloToken, bringData)).status).toBe(200);

      const late = await accept(friend, friendToken);
      expect(late.status).toBe(409);
      const members = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from org_members where org_id = ${abandonedOrg}::uuid`,
      );
      expect(members[0]!.n).toBe(0);
      expect(await orgIdOf(database, friend)).not.toBe(abandonedOrg);
    });
  }
});

// Real PostgreSQL only (PGlite runs one statement at a time): the solo owner of X accepts into a
// company while someone accepts X's own invitation. Either X keeps its owner (the owner's accept
// is refused) or the late invitee is refused; never a member in X with no owner.
describe.runIf(onPostgres)("an owner leaving while someone joins their organisation", () => {
  it("never leaves the organisation with members and no owner", async () => {
    for (let round = 0; round < 5; round++) {
      const { owner: companyOwner } = await createCompany(ctx);
      const solo = await verified(await registerUser(app, { name: "Solo" }));
      const friend = await verified(await registerUser(app, { name: "Friend" }));
      const soloOrg = await orgIdOf(database, solo);
      const friendToken = await invite(solo, friend.email, "admin");
      const soloToken = await invite(companyOwner, solo.email, "member");
      const [left, joined] = await Promise.all([
        accept(solo, soloToken),
        accept(friend, friendToken),
      ]);
      expect([left.status, joined.status].sort()).toEqual([200, 409]);
      const [roles] = await queryRows<{ members: number; owners: number }>(
        db,
        sql`select count(*)::int as members, count(*) filter (where role = 'owner')::int as owners
          from org_members where org_id = ${soloOrg}::uuid`,
      );
      expect(roles!.owners).toBe(roles!.members === 0 ? 0 : 1);
    }
  });

  it("two solo owners accepting each other's invitation at once: one joins, the other 409", async () => {
    for (let round = 0; round < 5; round++) {
      const a = await verified(await registerUser(app, { name: "A" }));
      const b = await verified(await registerUser(app, { name: "B" }));
      const [orgA, orgB] = [await orgIdOf(database, a), await orgIdOf(database, b)];
      const intoB = await invite(b, a.email, "member");
      const intoA = await invite(a, b.email, "member");
      const answers = await Promise.all([accept(a, intoB), accept(b, intoA)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const owners = await queryRows<{ org_id: string; members: number; owners: number }>(
        db,
        sql`select org_id, count(*)::int as members,
            count(*) filter (where role = 'owner')::int as owners
          from org_members where org_id in (${orgA}::uuid, ${orgB}::uuid) group by org_id`,
      );
      for (const org of owners) expect(org.owners).toBe(1);
    }
  });
});

// bring_data moves the wallet as it is. A run charged in the old organisation and still going
// refunds, when it fails or is cancelled, into the organisation it was charged in (ADR 0098),
// which nobody can reach once its last member left: those credits would be lost.
describe("accepting with bring_data while a charged run is still going", () => {
  it("is refused (409) until the run ends; then its refund moves with the rest", async () => {
    const { owner: companyOwner } = await createCompany(ctx);
    const solo = await verified(await registerUser(app, { name: "Solo" }));
    await grantCredits(deps, {
      userId: solo.userId,
      amount: 500,
      kind: "purchase",
      sourceType: "order",
      sourceId: `review-22-${solo.userId}`,
    });
    const wallet = (await getBalance(deps, solo.userId)).balance as number;
    const charge = await chargeCredits(deps, { userId: solo.userId, operation: "agent_run" });
    expect(charge.cost).toBeGreaterThan(0);
    const [run] = await queryRows<{ id: string }>(
      db,
      sql`insert into agent_pipelines (user_id, product, market, consumption_id)
        values (${solo.userId}::uuid, 'LED', 'Germany', ${charge.consumptionId}::uuid) returning id`,
    );
    const soloOrg = await orgIdOf(database, solo);
    const token = await invite(companyOwner, solo.email, "member");

    const refused = await accept(solo, token, true);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/still running/);
    expect(await orgIdOf(database, solo)).toBe(soloOrg);

    const cancel = await call(app, `/api/v1/agent/${run!.id}/cancel`, {
      method: "POST",
      token: solo.accessToken,
    });
    expect(cancel.status).toBe(200);
    const joined = await accept(solo, token, true);
    expect(joined.status).toBe(200);
    // Everything the wallet held before the charge, the refund included.
    expect(joined.body.credits_moved).toBe(wallet);
    expect((await getBalance(deps, companyOwner.userId)).balance).toBeGreaterThanOrEqual(wallet);
  });
});
