import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { purgeExpired } from "../../src/jobs/tasks";
import type { PasswordHasher } from "../../src/lib/password";
import { LOGIN_THROTTLE } from "../../src/modules/auth/service";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { call, randomEmail, randomIp, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

/** Every password the app verified: a refused attempt must never show up here. */
const verified: string[] = [];
const inner = createNodePasswordHasher();
const passwords: PasswordHasher = {
  hash: (password) => inner.hash(password),
  verify: (hash, password) => {
    verified.push(password);
    return inner.verify(hash, password);
  },
};

// The defaults of the hash bound (2 at once, 64 waiting) are what a flood runs into.
const ctx = await createTestContext({
  runtime: { passwords },
  env: { PASSWORD_HASH_CONCURRENCY: "2", PASSWORD_HASH_QUEUE: "64" },
});
const { app, deps } = ctx;

const login = (email: string, password: string, ip: string, target = app) =>
  call(target, "/api/v1/auth/login", { json: { email, password }, ip });

async function failures(userId: string) {
  const [row] = await queryRows<{ failed_login_count: number; last_failed_login_at: Date | null }>(
    deps.db,
    sql`select failed_login_count, last_failed_login_at from users where id = ${userId}`,
  );
  return row!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("login budgets per client IP", () => {
  it("refuses part of 25 parallel logins with different e-mails from one IP, before hashing", async () => {
    const ip = randomIp();
    const attempts = Array.from({ length: 25 }, (_, i) => ({
      email: randomEmail(),
      password: `spray-${i}-${Math.random()}`,
    }));
    const results = await Promise.all(attempts.map((a) => login(a.email, a.password, ip)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    attempts.forEach((attempt, i) => {
      const result = results[i]!;
      if (result.status === 429) {
        // Refused before any hash ran: its password never reached the hasher.
        expect(verified).not.toContain(attempt.password);
        expect(Number(result.res.headers.get("Retry-After"))).toBeGreaterThan(0);
        expect(result.body.detail).toMatch(/Too many requests/);
      } else {
        // Unknown e-mails still cost a (dummy) hash, so timing does not tell them apart.
        expect(verified).toContain(attempt.password);
      }
    });
    // Another address is not affected.
    const other = await login(randomEmail(), "whatever", randomIp());
    expect(other.status).toBe(401);
  });

  it("keeps logins from other addresses working through a flood from one IP", async () => {
    const user = await registerUser(app);
    const floodIp = randomIp();
    let firstAnswered: () => void;
    const answered = new Promise<void>((resolve) => {
      firstAnswered = resolve;
    });
    const flood = Array.from({ length: 400 }, (_, i) =>
      login(randomEmail(), `flood-${i}`, floodIp).finally(() => firstAnswered()),
    );
    // The flood is in full swing: unthrottled, the hash queue is full by its first answer.
    await answered;
    const good = await login(user.email, user.password, randomIp());
    const flooded = await Promise.all(flood);
    expect(good.status).toBe(200);
    expect(good.body.user.id).toBe(user.userId);
    const statuses = flooded.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
  });
});

describe("login failures per account", () => {
  it("slows 30 parallel wrong passwords from 6 IPs, then lets the right one in after the delay", async () => {
    const user = await registerUser(app);
    const ips = Array.from({ length: 6 }, () => randomIp());
    const wrong = Array.from({ length: 30 }, (_, i) => `wrong-${i}-${Math.random()}`);
    const results = await Promise.all(wrong.map((pw, i) => login(user.email, pw, ips[i % 6]!)));
    const statuses = results.map((r) => r.status);
    // The first FREE_FAILURES are free and claimed atomically: no more can pass in parallel.
    expect(statuses.filter((s) => s === 401).length).toBe(LOGIN_THROTTLE.FREE_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBe(30 - LOGIN_THROTTLE.FREE_FAILURES);
    const hashed = wrong.filter((pw) => verified.includes(pw));
    expect(hashed).toHaveLength(LOGIN_THROTTLE.FREE_FAILURES);
    const refused = results.find((r) => r.status === 429)!;
    const retryAfter = Number(refused.res.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.body.detail).toMatch(
      /failed sign-ins for this account; try again in \d+ second/,
    );
    expect((await failures(user.userId)).failed_login_count).toBe(LOGIN_THROTTLE.FREE_FAILURES);

    // Right now even the right password waits (nothing is hashed for it) ...
    const early = await login(user.email, user.password, randomIp());
    expect(early.status).toBe(429);
    // ... and after the delay it gets in from a new address: no lockout. Success resets.
    await sleep(retryAfter * 1000 + 50);
    const late = await login(user.email, user.password, randomIp());
    expect(late.status).toBe(200);
    expect(late.body.user.id).toBe(user.userId);
    expect(await failures(user.userId)).toEqual({
      failed_login_count: 0,
      last_failed_login_at: null,
    });
  });

  it("doubles the delay per further failure up to the cap; refusals do not lengthen it", async () => {
    const user = await registerUser(app);
    let now = Date.now();
    const clockApp = await ctx.makeApp({ clock: { now: () => new Date(now) } });
    const attempt = (password = "wrong-password") =>
      login(user.email, password, randomIp(), clockApp);
    for (let i = 0; i < LOGIN_THROTTLE.FREE_FAILURES; i++) {
      expect((await attempt()).status).toBe(401);
    }
    for (const delay of [1, 2, 4, 8]) {
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.res.headers.get("Retry-After")).toBe(String(delay));
      const before = await failures(user.userId);
      now += (delay - 0.5) * 1000;
      expect((await attempt()).status).toBe(429); // still waiting, and the wait did not grow
      expect(await failures(user.userId)).toEqual(before);
      now += 500;
      expect((await attempt()).status).toBe(401);
    }
    // However many failures pile up, the wait is capped.
    await deps.db.execute(
      sql`update users set failed_login_count = 40,
            last_failed_login_at = ${new Date(now).toISOString()}::timestamptz
          where id = ${user.userId}`,
    );
    const capped = await attempt(user.password);
    expect(capped.status).toBe(429);
    expect(capped.res.headers.get("Retry-After")).toBe(String(LOGIN_THROTTLE.MAX_DELAY_SECONDS));
    now += LOGIN_THROTTLE.MAX_DELAY_SECONDS * 1000;
    expect((await attempt(user.password)).status).toBe(200);
    expect((await failures(user.userId)).failed_login_count).toBe(0);
  });

  it("an attacker's failures never keep the owner out of an address they signed in from", async () => {
    const user = await registerUser(app);
    const home = randomIp();
    expect((await login(user.email, user.password, home)).status).toBe(200);
    // Failures from elsewhere, enough for the longest wait.
    await deps.db.execute(
      sql`update users set failed_login_count = 40, last_failed_login_at = now()
          where id = ${user.userId}`,
    );
    expect((await login(user.email, user.password, randomIp())).status).toBe(429);
    expect((await login(user.email, user.password, home)).status).toBe(200);
    // A wrong password from home is still a failure (and per-IP budgets still apply there).
    expect((await login(user.email, "not-it", home)).status).toBe(401);
  });

  it("forgets failures after a quiet day", async () => {
    const user = await registerUser(app);
    let now = Date.now();
    const clockApp = await ctx.makeApp({ clock: { now: () => new Date(now) } });
    for (let i = 0; i < LOGIN_THROTTLE.FREE_FAILURES + 1; i++) {
      await login(user.email, "wrong-password", randomIp(), clockApp);
    }
    expect((await login(user.email, user.password, randomIp(), clockApp)).status).toBe(429);
    now += 24 * 3600 * 1000 + 1000;
    expect((await login(user.email, "wrong-password", randomIp(), clockApp)).status).toBe(401);
    expect((await failures(user.userId)).failed_login_count).toBe(1);
  });
});

describe("an address no account has is throttled alike (ADR 0084)", () => {
  /** Status, every header but the per-request ones, and the body: what a caller can compare. */
  const seen = (r: Awaited<ReturnType<typeof login>>) => ({
    status: r.status,
    headers: [...r.res.headers.entries()].filter(
      ([name]) => !["x-request-id", "date", "set-cookie"].includes(name),
    ),
    body: r.body,
  });

  it("the same answers, waits and hashing after N wrong passwords, known or unknown", async () => {
    const user = await registerUser(app);
    const unknown = randomEmail();
    let now = Date.now();
    const clockApp = await ctx.makeApp({ clock: { now: () => new Date(now) } });
    const attempt = (email: string, password: string) =>
      login(email, password, randomIp(), clockApp);
    const round = async (label: string) => {
      const known = `${label}-known-${Math.random()}`;
      const other = `${label}-unknown-${Math.random()}`;
      const [a, b] = [await attempt(user.email, known), await attempt(unknown, other)];
      // The same work for both: hashed both or neither (a refusal runs no hash).
      expect(verified.includes(known), label).toBe(verified.includes(other));
      return [seen(a), seen(b)] as const;
    };
    for (let i = 0; i < LOGIN_THROTTLE.FREE_FAILURES; i++) {
      const [known, other] = await round(`free${i}`);
      expect(known.status).toBe(401);
      expect(other).toEqual(known);
    }
    for (const delay of [1, 2, 4]) {
      const [known, other] = await round(`early${delay}`);
      expect(known.status).toBe(429);
      expect(known.headers).toContainEqual(["retry-after", String(delay)]);
      expect(other).toEqual(known);
      now += delay * 1000;
      const [knownLate, otherLate] = await round(`late${delay}`);
      expect(knownLate.status).toBe(401);
      expect(otherLate).toEqual(knownLate);
    }
  });

  it("30 parallel wrong passwords for an unknown address: 5 are tried, 25 refused", async () => {
    const email = randomEmail();
    const ips = Array.from({ length: 6 }, () => randomIp());
    const wrong = Array.from({ length: 30 }, (_, i) => `unknown-${i}-${Math.random()}`);
    const results = await Promise.all(wrong.map((pw, i) => login(email, pw, ips[i % 6]!)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBe(LOGIN_THROTTLE.FREE_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBe(30 - LOGIN_THROTTLE.FREE_FAILURES);
    expect(wrong.filter((pw) => verified.includes(pw))).toHaveLength(LOGIN_THROTTLE.FREE_FAILURES);
    // Stored under the address's hash only; the daily purge drops it once forgotten.
    const rows = await queryRows<{ address_hash: string }>(
      deps.db,
      sql`select address_hash from unknown_login_failures`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(email);
    const later = await ctx.makeInstance({
      clock: { now: () => new Date(Date.now() + 25 * 3600_000) },
    });
    await purgeExpired(later.deps);
    const left = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from unknown_login_failures`,
    );
    expect(left[0]!.n).toBe(0);
  });
});
