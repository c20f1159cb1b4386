import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, publicBaseUrl } from "../../src/config";
import {
  dictionarySecretProblems,
  generateSecret,
  loadNodeSecrets,
} from "../../src/runtime/node/secrets";

/** A production configuration that starts: every later case breaks exactly one thing. */
const GOOD = {
  APP_ENV: "production",
  JWT_SECRET: "q8Zr3LwN1xVt7yKc2HbP9sJd5GfM0aUe4RoT6iWn",
  CSRF_SECRET: "Xm4Tz9Qa1Lp7Vb3Nc8Rk2Wd6Hf0Jg5Ys-EuOiBtA",
  APP_ENCRYPTION_KEY: "fK7_pR2vL9xZ4cN1mQ8wT3bH6jY0dS5gA-uEoIiV",
  PUBLIC_BASE_URL: "https://api.example.com",
  FRONTEND_URL: "https://app.example.com",
  CORS_ORIGINS: "https://app.example.com",
  DATABASE_URL: "postgres://app@db.internal:5432/app",
  REDIS_URL: "redis://cache.internal:6379",
  MAIL_API_KEY: "re_123",
  MAIL_FROM: "Trade Assistant <no-reply@example.com>",
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe("production settings", () => {
  it("starts on a complete production configuration", () => {
    expect(problemsOf(GOOD)).toEqual([]);
  });

  it("refuses guessable secrets by estimated guesses, naming the setting, never quoting it", () => {
    for (const weak of [
      // The reported one: a keyboard run with a digit run.
      "qwertyuiopasdfghjklzxcvbnm123456",
      "abcdefghijklmnopqrstuvwxyz012345",
      "zyxwvutsrqponmlkjihgfedcba987654",
      "01234567890123456789012345678901",
      "a".repeat(32),
      "abcd".repeat(8),
      "passwordpasswordpasswordpassword",
      "0101010101010101010101010101010101",
      "test_signing_secret_0123456789abcdef",
    ]) {
      for (const name of ["JWT_SECRET", "CSRF_SECRET", "APP_ENCRYPTION_KEY"]) {
        const problems = problemsOf({ ...GOOD, [name]: weak });
        expect(problems, `${name}=${weak}`).toEqual([
          expect.stringMatching(new RegExp(`^${name}: too guessable`)),
        ]);
        expect(problems.join("\n")).not.toContain(weak);
      }
    }
    // The sandbox's key is optional, but judged when set.
    expect(
      problemsOf({ ...GOOD, PAYMENT_SANDBOX_SECRET: "qwertyuiopasdfghjklzxcvbnm123456" }),
    ).toEqual([expect.stringMatching(/^PAYMENT_SANDBOX_SECRET: too guessable/)]);
  });

  it("accepts random secrets: 32 bytes as base64, base64url or hex", () => {
    for (let i = 0; i < 20; i++) {
      const env = {
        ...GOOD,
        JWT_SECRET: randomBytes(32).toString("base64"),
        CSRF_SECRET: randomBytes(32).toString("hex"),
        APP_ENCRYPTION_KEY: randomBytes(32).toString("base64url"),
        PAYMENT_SANDBOX_SECRET: generateSecret(),
      };
      expect(problemsOf(env)).toEqual([]);
    }
  });

  it("on Node, production also refuses dictionary words and phrases (zxcvbn's word lists)", async () => {
    const phrases = [
      "thisismysupersecretjwtsigningkey2024!",
      "correcthorsebatterystaplecorrecthorse",
      "my-application-jwt-secret-for-production",
      "sunshine-dragon-football-monkey-shadow-master",
      // Keyboard columns: a common password list has it.
      "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9",
    ];
    for (const phrase of phrases) {
      // Past the pattern check every runtime runs...
      expect(problemsOf({ ...GOOD, APP_ENCRYPTION_KEY: phrase }), phrase).toEqual([]);
      // ...but not past the word lists.
      const config = parseConfig({ ...GOOD, APP_ENCRYPTION_KEY: phrase });
      const problems = await dictionarySecretProblems(config);
      expect(problems, phrase).toEqual([
        expect.stringMatching(/^APP_ENCRYPTION_KEY: too guessable/),
      ]);
      expect(problems.join("\n")).not.toContain(phrase);
      await expect(loadNodeSecrets(config)).rejects.toBeInstanceOf(ConfigError);
    }
    expect(await dictionarySecretProblems(parseConfig(GOOD))).toEqual([]);
    expect(await loadNodeSecrets(parseConfig(GOOD))).toMatchObject({ jwtSecret: GOOD.JWT_SECRET });
  });

  it("the secrets Node generates into DATA_DIR pass the production judge, words included", async () => {
    const dir = await mkdtemp(join(tmpdir(), "secrets-"));
    try {
      for (let i = 0; i < 10; i++) {
        const generated = await loadNodeSecrets(
          parseConfig({ APP_ENV: "development", DATA_DIR: join(dir, String(i)) }),
        );
        const env = {
          ...GOOD,
          JWT_SECRET: generated.jwtSecret,
          CSRF_SECRET: generated.csrfSecret,
          APP_ENCRYPTION_KEY: generated.encryptionKey,
          PAYMENT_SANDBOX_SECRET: generated.paymentSandboxSecret,
        };
        expect(problemsOf(env)).toEqual([]);
        expect(await dictionarySecretProblems(parseConfig(env))).toEqual([]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses two secrets that are equal", () => {
    const problems = problemsOf({ ...GOOD, CSRF_SECRET: GOOD.JWT_SECRET });
    expect(problems).toEqual(["CSRF_SECRET: must differ from JWT_SECRET"]);
  });

  it("refuses missing secrets in the same list as everything else", () => {
    const problems = problemsOf({ ...GOOD, APP_ENCRYPTION_KEY: undefined, CORS_ORIGINS: "" });
    expect(problems).toEqual([
      expect.stringMatching(/^APP_ENCRYPTION_KEY: required in production/),
      expect.stringMatching(/^CORS_ORIGINS: required in production/),
    ]);
  });

  it("refuses an http:// gateway or provider URL, but not a loopback sidecar", () => {
    const settings = [
      "PAYMENT_GATEWAY_URL",
      "RATES_API_URL",
      "MAIL_API_URL",
      "QSTASH_URL",
      "PDF_FONT_URL",
      "STRIPE_API_BASE",
      "WECHAT_API_BASE",
      "DOH_ENDPOINT",
    ];
    for (const name of settings) {
      expect(problemsOf({ ...GOOD, [name]: "http://provider.example.com/x" })).toEqual([
        `${name}: must be an https:// URL in production`,
      ]);
      expect(problemsOf({ ...GOOD, [name]: "http://127.0.0.1:8080/x" })).toEqual([]);
    }
  });

  it("refuses a missing PUBLIC_BASE_URL or CORS_ORIGINS", () => {
    expect(problemsOf({ ...GOOD, PUBLIC_BASE_URL: "" })).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL: required in production/),
    ]);
    expect(problemsOf({ ...GOOD, PUBLIC_BASE_URL: "api.example.com" })).toEqual([
      "PUBLIC_BASE_URL: must be an absolute URL",
    ]);
    expect(problemsOf({ ...GOOD, CORS_ORIGINS: " , " })).toEqual([
      expect.stringMatching(/^CORS_ORIGINS: required in production/),
    ]);
  });

  it("refuses `*`, `null` and anything that is not an exact origin in CORS_ORIGINS, anywhere", () => {
    for (const env of ["production", "development", "test"]) {
      const base = env === "production" ? GOOD : { APP_ENV: env };
      expect(problemsOf({ ...base, CORS_ORIGINS: "*,null" }), env).toEqual([
        expect.stringMatching(/^CORS_ORIGINS: "\*" cannot be allowed with credentials/),
        expect.stringMatching(/^CORS_ORIGINS: "null" cannot be allowed with credentials/),
      ]);
      for (const bad of [
        "NULL",
        "https://app.example.com/",
        "https://*.example.com",
        "app.example.com",
        "file://x",
      ]) {
        expect(problemsOf({ ...base, CORS_ORIGINS: `https://ok.example,${bad}` }), bad).toEqual([
          expect.stringMatching(/^CORS_ORIGINS: /),
        ]);
      }
      expect(
        problemsOf({ ...base, CORS_ORIGINS: "https://app.example.com, http://localhost:5173" }),
      ).toEqual([]);
    }
  });

  it("refuses the embedded database, the memory limiter and no mail unless allowed", () => {
    const singleBox = {
      ...GOOD,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      MAIL_API_KEY: undefined,
      MAIL_FROM: undefined,
    };
    expect(problemsOf(singleBox)).toEqual([
      expect.stringMatching(/^DATABASE_URL: .*ALLOW_EMBEDDED_DATABASE=true/),
      expect.stringMatching(/^REDIS_URL: .*ALLOW_MEMORY_RATE_LIMIT=true/),
      expect.stringMatching(/^SMTP_URL or MAIL_API_KEY: .*ALLOW_NO_MAIL=true/),
    ]);
    expect(
      problemsOf({
        ...singleBox,
        ALLOW_EMBEDDED_DATABASE: "true",
        ALLOW_MEMORY_RATE_LIMIT: "true",
        ALLOW_NO_MAIL: "true",
      }),
    ).toEqual([]);
    // Upstash is the Workers limiter: a URL without its token is still the memory limiter.
    const upstash = { ...GOOD, REDIS_URL: undefined, UPSTASH_REDIS_REST_URL: "https://u.example" };
    expect(problemsOf(upstash)).toHaveLength(1);
    expect(problemsOf({ ...upstash, UPSTASH_REDIS_REST_TOKEN: "tok" })).toEqual([]);
  });

  it("lists every problem at once", () => {
    expect(problemsOf({ APP_ENV: "production" }).length).toBeGreaterThanOrEqual(8);
  });

  it("leaves development and tests alone", () => {
    expect(problemsOf({ APP_ENV: "development", JWT_SECRET: "a".repeat(32) })).toEqual([]);
  });
});

describe("publicBaseUrl", () => {
  it("is PUBLIC_BASE_URL without a trailing slash, else this server's own address", () => {
    expect(publicBaseUrl(parseConfig({ PUBLIC_BASE_URL: "https://x.example/" }))).toBe(
      "https://x.example",
    );
    expect(publicBaseUrl(parseConfig({ PORT: "4321" }))).toBe("http://localhost:4321");
  });
});
