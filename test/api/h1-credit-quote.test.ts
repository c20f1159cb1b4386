import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { adjustCredits } from "../../src/modules/credits/service";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { createCompany } from "../support/orgs";

/**
 * Price first, charged as quoted (issue #24 item 1, ADR 0108): POST /credits/quote prices a
 * billable operation; the route called with the quote's id charges exactly that, once, or
 * refuses (404 quote_not_found, 409 quote_used / quote_expired / quote_wrong_operation) before
 * anything is charged. Every 402 carries `required`, `available` and `balance`. Marketing
 * (3 credits by default) is the billed route used here. Runs on PGlite and, with DATABASE_URL,
 * on PostgreSQL, where the two parallel uses of one quote really race.
 */

// The file's clock: a test moves it to let a quote expire.
let now = new Date();
const ctx = await createTestContext({ runtime: { clock: { now: () => now } } });
const { app, deps } = ctx;
let llm: FakeOpenAi;
let admin: Session;

beforeAll(async () => {
  llm = await startFakeOpenAi("sk-h1-quote");
  admin = await registerAdmin(ctx);
});
afterAll(async () => {
  await setCost("marketing", 3);
  await llm.close();
});
beforeEach(async () => {
  now = new Date();
  llm.fail(null);
  llm.reply(() => "Dear buyer, meet our lamps.");
  await clearAiProviders(deps);
  await setAiRouting(deps, "marketing", []);
  await addAiProvider(deps, {
    name: "writer",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["gpt-writer"],
  });
  await setCost("marketing", 3);
});

/** An admin sets one operation's cost through the admin API. */
async function setCost(operation: string, cost: number) {
  const current = await call(app, "/api/v1/admin/system-config/credits.costs", {
    token: admin.accessToken,
  });
  expect(current.status).toBe(200);
  const saved = await call(app, "/api/v1/admin/system-config/credits.costs", {
    method: "PUT",
    token: admin.accessToken,
    json: { value: { ...current.body.value, [operation]: cost } },
  });
  expect(saved.status).toBe(200);
}

const quote = (user: Session, operation: string, input: unknown = {}) =>
  call(app, "/api/v1/credits/quote", { token: user.accessToken, json: { operation, input } });

const generate = (user: Session, quoteId?: string, headers: Record<string, string> = {}) =>
  call(app, "/api/v1/marketing/generate", {
    token: user.accessToken,
    json: { kind: "email", language: "en", ...(quoteId ? { quote_id: quoteId } : {}) },
    headers,
  });

const balanceOf = async (user: Session) => {
  const answer = await call(app, "/api/v1/credits/balance", { token: user.accessToken });
  expect(answer.status).toBe(200);
  return answer.body.balance as number;
};

/** The user's consumption and refund ledger rows of an operation, oldest first. */
const ledgerOf = (userId: string, operation = "marketing") =>
  queryRows<{ kind: string; delta: number }>(
    deps.db,
    sql`select kind, delta from credit_ledger
        where user_id = ${userId}::uuid and operation = ${operation}
        order by created_at, kind`,
  );

describe("POST /api/v1/credits/quote", () => {
  it("prices the operation and the route charges exactly that, even after the cost changed", async () => {
    const user = await registerUser(app);
    const before = await balanceOf(user);
    const quoted = await quote(user, "marketing", { kind: "email", language: "en" });
    expect(quoted.status).toBe(201);
    expect(quoted.body).toMatchObject({
      operation: "marketing",
      credits: 3,
      balance: before,
      sufficient: true,
    });
    expect(Date.parse(quoted.body.expires_at) - now.getTime()).toBe(10 * 60_000);

    // The admin raises the price between the quote and the charge: the quote holds.
    await setCost("marketing", 7);
    const charged = await generate(user, quoted.body.quote_id);
    expect(charged.status).toBe(201);
    expect(charged.body.credits_charged).toBe(3);
    expect(charged.body.balance).toBe(before - 3);
    expect(await balanceOf(user)).toBe(before - 3);
    expect(await ledgerOf(user.userId)).toEqual([{ kind: "consumption", delta: -3 }]);
    const [row] = await queryRows<{ used: boolean; consumption: string | null }>(
      deps.db,
      sql`select used_at is not null as used, consumption_id::text as consumption
          from credit_quotes where id = ${quoted.body.quote_id}::uuid`,
    );
    expect(row!.used).toBe(true);
    expect(row!.consumption).not.toBeNull();

    // Without a quote the new price applies.
    const unquoted = await generate(user);
    expect(unquoted.status).toBe(201);
    expect(unquoted.body.credits_charged).toBe(7);
  });

  it("refuses an unknown operation and an input that is not an object", async () => {
    const user = await registerUser(app);
    expect((await quote(user, "teleport")).status).toBe(422);
    expect((await quote(user, "marketing", "some text")).status).toBe(422);
    expect((await quote(user, "marketing", ["a"])).status).toBe(422);
  });

  it("says when the caller cannot afford it (sufficient false)", async () => {
    const user = await registerUser(app);
    const balance = await balanceOf(user);
    await setCost("marketing", balance + 5);
    const quoted = await quote(user, "marketing");
    expect(quoted.status).toBe(201);
    expect(quoted.body).toMatchObject({ credits: balance + 5, balance, sufficient: false });
    // Charging it is a 402 naming the quoted price; the quote is not spent.
    const refused = await generate(user, quoted.body.quote_id);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      code: "insufficient_credits",
      required: balance + 5,
      available: balance,
      balance,
    });
    await adjustCredits(deps, {
      userId: user.userId,
      delta: 10,
      actorId: admin.userId,
      reason: "top-up",
    });
    const paid = await generate(user, quoted.body.quote_id);
    expect(paid.status).toBe(201);
    expect(paid.body.credits_charged).toBe(balance + 5);
  });
});

describe("a quote that cannot be used charges nothing", () => {
  it("expired: 409 quote_expired", async () => {
    const user = await registerUser(app);
    const quoted = await quote(user, "marketing");
    expect(quoted.status).toBe(201);
    const before = await balanceOf(user);
    const asked = llm.requests.length;
    now = new Date(now.getTime() + 10 * 60_000 + 1000);
    const late = await generate(user, quoted.body.quote_id);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("quote_expired");
    expect(await balanceOf(user)).toBe(before);
    expect(await ledgerOf(user.userId)).toEqual([]);
    expect(llm.requests.length).toBe(asked);
  });

  it("for another operation: 409 quote_wrong_operation", async () => {
    const user = await registerUser(app);
    const quoted = await quote(user, "translate", { text: "Hallo", target_lang: "en" });
    expect(quoted.status).toBe(201);
    const before = await balanceOf(user);
    const wrong = await generate(user, quoted.body.quote_id);
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe("quote_wrong_operation");
    expect(await balanceOf(user)).toBe(before);
  });

  it("another user's, or unknown: 404 quote_not_found", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const quoted = await quote(other, "marketing");
    const before = await balanceOf(user);
    const stolen = await generate(user, quoted.body.quote_id);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe("quote_not_found");
    const unknown = await generate(user, "5b0c8f5e-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("quote_not_found");
    expect(await balanceOf(user)).toBe(before);
    // Its owner can still use it.
    expect((await generate(other, quoted.body.quote_id)).status).toBe(201);
  });

  it("used: the second use is 409 quote_used, charged once", async () => {
    const user = await registerUser(app);
    const before = await balanceOf(user);
    const quoted = await quote(user, "marketing");
    expect((await generate(user, quoted.body.quote_id)).status).toBe(201);
    const again = await generate(user, quoted.body.quote_id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("quote_used");
    expect(await balanceOf(user)).toBe(before - 3);
    expect(await ledgerOf(user.userId)).toEqual([{ kind: "consumption", delta: -3 }]);
  });
});

describe("a quote across failures and retries", () => {
  it("a refunded charge (provider down) gives the quote back for the retry", async () => {
    const user = await registerUser(app);
    const before = await balanceOf(user);
    const quoted = await quote(user, "marketing");
    llm.fail("http-500");
    const failed = await generate(user, quoted.body.quote_id);
    expect(failed.status).toBe(503);
    expect(await balanceOf(user)).toBe(before);
    llm.fail(null);
    now = new Date(now.getTime() + 1000);
    const retried = await generate(user, quoted.body.quote_id);
    expect(retried.status).toBe(201);
    expect(retried.body.credits_charged).toBe(3);
    expect(await balanceOf(user)).toBe(before - 3);
    expect(await ledgerOf(user.userId)).toEqual([
      { kind: "consumption", delta: -3 },
      { kind: "refund", delta: 3 },
      { kind: "consumption", delta: -3 },
    ]);
  });

  it("an Idempotency-Key replay spends no second quote and charges once", async () => {
    const user = await registerUser(app);
    const before = await balanceOf(user);
    const quoted = await quote(user, "marketing");
    const key = { "Idempotency-Key": `h1-${crypto.randomUUID()}` };
    const first = await generate(user, quoted.body.quote_id, key);
    const replay = await generate(user, quoted.body.quote_id, key);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(user)).toBe(before - 3);
    expect(await ledgerOf(user.userId)).toEqual([{ kind: "consumption", delta: -3 }]);
  });

  it("parallel uses of one quote charge once (one 201, the others 409 quote_used)", async () => {
    const user = await registerUser(app);
    const before = await balanceOf(user);
    const quoted = await quote(user, "marketing");
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => generate(user, quoted.body.quote_id)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const a of answers.filter((a) => a.status === 409)) {
      expect(a.body.code).toBe("quote_used");
    }
    expect(await balanceOf(user)).toBe(before - 3);
    expect(await ledgerOf(user.userId)).toEqual([{ kind: "consumption", delta: -3 }]);
  });
});

describe("402 carries required, available and balance", () => {
  it("without a limit, available is the balance", async () => {
    const user = await registerUser(app);
    const balance = await balanceOf(user);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -(balance - 1),
      actorId: admin.userId,
      reason: "drain",
    });
    const refused = await generate(user);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      code: "insufficient_credits",
      required: 3,
      available: 1,
      balance: 1,
    });
  });

  it("under a monthly limit, available is what the limit leaves", async () => {
    const { owner, member } = await createCompany(ctx);
    await adjustCredits(deps, {
      userId: owner.userId,
      delta: 100,
      actorId: admin.userId,
      reason: "top-up",
    });
    await queryRows(
      deps.db,
      sql`update org_members set monthly_credit_limit = 4 where user_id = ${member.userId}::uuid`,
    );
    expect((await generate(member)).status).toBe(201);
    const balance = await balanceOf(owner);
    const refused = await generate(member);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      code: "member_limit_reached",
      required: 3,
      available: 1,
      balance,
      limit: 4,
      used: 3,
    });
    // The quote says so too.
    const quoted = await quote(member, "marketing");
    expect(quoted.body).toMatchObject({ credits: 3, balance, sufficient: false });
  });
});
