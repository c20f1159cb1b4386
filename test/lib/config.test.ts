import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, publicBaseUrl, secretBits } from "../../src/config";

/** A production configuration that starts: every later case breaks exactly one thing. */
const GOOD = {
  APP_ENV: "production",
  JWT_SECRET: "q8Zr3LwN1xVt7yKc2HbP9sJd5GfM0aUe4RoT6iWn",
  CSRF_SECRET: "Xm4Tz9Qa1Lp7Vb3Nc8Rk2Wd6Hf0Jg5Ys-EuOiBtA",
  APP_ENCRYPTION_KEY: "fK7_pR2vL9xZ4cN1mQ8wT3bH6jY0dS5gA-uEoIiV",
  PUBLIC_BASE_URL: "https://api.example.com",
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

  it("refuses low-entropy secrets, naming the setting", () => {
    for (const weak of [
      "a".repeat(32),
      "abcd".repeat(8),
      "passwordpasswordpasswordpassword",
      "0101010101010101010101010101010101",
    ]) {
      const problems = problemsOf({ ...GOOD, JWT_SECRET: weak });
      expect(problems, weak).toEqual([expect.stringMatching(/^JWT_SECRET: too guessable/)]);
    }
    expect(secretBits("a".repeat(32))).toBe(0);
    expect(secretBits(GOOD.JWT_SECRET)).toBeGreaterThan(150);
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
