import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config";
import type { Database } from "../../src/db/client";
import { buildDeps } from "../../src/deps";
import { createLogger, type LogLevel } from "../../src/lib/logger";
import { createHttpMailer } from "../../src/providers/mail/http";
import { createLogMailer } from "../../src/providers/mail/log";
import { MailError, type Mailer } from "../../src/providers/mail/types";
import { createMemoryRateLimiter } from "../../src/providers/ratelimit/memory";
import { createNodeRuntime } from "../../src/runtime/node/adapters";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { createSmtpMailer, smtpRequiresTls } from "../../src/runtime/node/smtp-mailer";
import { type FakeMailApi, startFakeMailApi } from "../fakes/mail-api";
import { type FakeSmtp, startFakeSmtp } from "../fakes/smtp";
import { TEST_CA, TEST_SERVER_CERT, TEST_SERVER_KEY } from "../fakes/smtp-tls";
import { TEST_SECRETS } from "../support/harness";

const FROM = "Trade Assistant <no-reply@trade.example>";
const message = {
  to: "buyer@example.com",
  subject: "Confirm your address",
  text: "Open http://localhost:3000/verify-email?token=abc123 to confirm.\n",
  html: "<p>Open the link</p>",
};

/** Awaits a rejection: a MailError whose text carries none of the given secrets. */
async function mailError(promise: Promise<unknown>, secrets: string[] = []): Promise<MailError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MailError);
  const e = error as MailError;
  for (const text of [e.message, JSON.stringify(e), String(e.stack)]) {
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
  return e;
}

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("HTTP mail API (Resend protocol)", () => {
  let api: FakeMailApi;
  let mailer: Mailer;
  beforeAll(async () => {
    api = await startFakeMailApi();
    mailer = createHttpMailer({ apiUrl: api.url, apiKey: api.apiKey, from: FROM });
  });
  afterEach(() => api.fail(null));
  afterAll(() => api.close());

  it("posts the message as the documented JSON with the key and a User-Agent", async () => {
    await mailer.send(message);
    const email = api.sent.at(-1)!;
    expect(email).toMatchObject({
      from: FROM,
      to: ["buyer@example.com"],
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    expect(email.headers.authorization).toBe(`Bearer ${api.apiKey}`);
    expect(email.headers["user-agent"]).toBeTruthy();
  });

  it("a path prefix or a trailing slash in MAIL_API_URL still reaches /emails", async () => {
    const slashed = createHttpMailer({ apiUrl: `${api.url}/`, apiKey: api.apiKey, from: FROM });
    const before = api.sent.length;
    await slashed.send({ to: "a@example.com", subject: "s", text: "t" });
    expect(api.sent.length).toBe(before + 1);
    expect(api.sent.at(-1)).not.toHaveProperty("html");
  });

  it("a wrong key is `rejected` with the provider's code, and the key is not in the error", async () => {
    const wrongKey = "re_wrong_key_do_not_leak";
    const bad = createHttpMailer({ apiUrl: api.url, apiKey: wrongKey, from: FROM });
    const error = await mailError(bad.send(message), [wrongKey, api.apiKey]);
    expect(error).toMatchObject({ reason: "rejected", status: 403, code: "invalid_api_key" });
  });

  it("a message the provider refuses is `invalid_message` (422 validation_error)", async () => {
    const badSender = createHttpMailer({ apiUrl: api.url, apiKey: api.apiKey, from: "nobody" });
    const error = await mailError(badSender.send(message), [api.apiKey]);
    expect(error).toMatchObject({
      reason: "invalid_message",
      status: 422,
      code: "validation_error",
    });
    // The provider's text (which may echo addresses) is not carried.
    expect(error.message).not.toContain("email@example.com");
  });

  it("5xx is `unavailable`, 429 is `rate_limited`", async () => {
    api.fail("server-error");
    expect(await mailError(mailer.send(message))).toMatchObject({
      reason: "unavailable",
      status: 500,
      code: "application_error",
    });
    api.fail("rate-limited");
    expect(await mailError(mailer.send(message))).toMatchObject({
      reason: "rate_limited",
      status: 429,
    });
  });

  it("a redirect is not followed (the key would travel with it)", async () => {
    api.fail("redirect");
    const before = api.requests.length;
    const error = await mailError(mailer.send(message));
    expect(error).toMatchObject({ reason: "unavailable", status: 307 });
    expect(api.requests.length).toBe(before + 1);
  });

  it("a provider that never answers times out; an unreachable one is `network`", async () => {
    api.fail("hang");
    const impatient = createHttpMailer({
      apiUrl: api.url,
      apiKey: api.apiKey,
      from: FROM,
      timeoutMs: 200,
    });
    expect((await mailError(impatient.send(message))).reason).toBe("timeout");
    const port = await closedPort();
    const nowhere = createHttpMailer({
      apiUrl: `http://127.0.0.1:${port}`,
      apiKey: api.apiKey,
      from: FROM,
    });
    expect((await mailError(nowhere.send(message), [api.apiKey])).reason).toBe("network");
  });
});

describe("SMTP (nodemailer, Node only)", () => {
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterEach(() => smtp.rejectRecipients(null));
  afterAll(() => smtp.close());

  it("delivers through a real SMTP server with the credentials of SMTP_URL", async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from: FROM });
    expect(mailer.kind).toBe("smtp");
    await mailer.send(message);
    const mail = await smtp.waitFor((m) => m.subject === message.subject);
    expect(mail.envelopeTo).toEqual(["buyer@example.com"]);
    expect(mail.envelopeFrom).toBe("no-reply@trade.example");
    expect(mail.from).toContain("no-reply@trade.example");
    expect(mail.links).toEqual(["http://localhost:3000/verify-email?token=abc123"]);
    expect(mail.html).toContain("Open the link");
  });

  it("wrong credentials are `rejected`; the password is not in the error", async () => {
    const url = smtp.url.replace(encodeURIComponent(smtp.pass), "wrong-password-xyz");
    const error = await mailError(createSmtpMailer({ url, from: FROM }).send(message), [
      "wrong-password-xyz",
      smtp.pass,
    ]);
    expect(error).toMatchObject({ reason: "rejected", code: "EAUTH", status: 535 });
  });

  it("a refused recipient is `invalid_message`; a 4xx reply is `rate_limited`", async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from: FROM });
    smtp.rejectRecipients(550);
    expect((await mailError(mailer.send(message))).reason).toBe("invalid_message");
    smtp.rejectRecipients(451);
    expect((await mailError(mailer.send(message))).reason).toBe("rate_limited");
  });

  it("an unreachable server is `network`", async () => {
    const port = await closedPort();
    const mailer = createSmtpMailer({ url: `smtp://u:p@127.0.0.1:${port}`, from: FROM });
    expect((await mailError(mailer.send(message))).reason).toBe("network");
  });
});

describe("SMTP and TLS: production never sends the password or a mail in clear", () => {
  let plain: FakeSmtp;
  let starttls: FakeSmtp;
  beforeAll(async () => {
    plain = await startFakeSmtp();
    starttls = await startFakeSmtp({ tls: { key: TEST_SERVER_KEY, cert: TEST_SERVER_CERT } });
  });
  afterAll(() => Promise.all([plain.close(), starttls.close()]));

  /** A production configuration that starts, mailing through `smtpUrl`. */
  const production = (smtpUrl: string, env: Record<string, string> = {}) =>
    parseConfig({
      APP_ENV: "production",
      LOG_LEVEL: "silent",
      JWT_SECRET: randomBytes(32).toString("base64url"),
      CSRF_SECRET: randomBytes(32).toString("base64url"),
      APP_ENCRYPTION_KEY: randomBytes(32).toString("base64url"),
      PUBLIC_BASE_URL: "https://api.example.com",
      FRONTEND_URL: "https://app.example.com",
      CORS_ORIGINS: "https://app.example.com",
      ALLOW_EMBEDDED_DATABASE: "true",
      ALLOW_MEMORY_RATE_LIMIT: "true",
      SMTP_URL: smtpUrl,
      MAIL_FROM: FROM,
      ...env,
    });

  it("production's mailer refuses a server without STARTTLS before AUTH: nothing crosses in clear", async () => {
    const config = production(plain.url);
    expect(smtpRequiresTls(config)).toBe(true);
    const node = await createNodeRuntime(config, {
      database: { kind: "pglite", db: {} } as unknown as Database,
      secrets: TEST_SECRETS,
    });
    const before = plain.events.length;
    const error = await mailError(node.mailer!.send(message), [plain.pass]);
    expect(error.reason).toBe("network");
    // No AUTH (the password), no MAIL FROM / RCPT TO (the address), no DATA (the link).
    expect(plain.events.slice(before)).toEqual([]);
    expect(plain.mailsTo(message.to)).toEqual([]);
  });

  it("the same mailer delivers through a server that offers STARTTLS, every command under TLS", async () => {
    const mailer = createSmtpMailer({
      url: starttls.url,
      from: FROM,
      requireTls: true,
      ca: TEST_CA,
    });
    await mailer.send(message);
    const mail = await starttls.waitFor((m) => m.subject === message.subject);
    expect(mail.links).toEqual(["http://localhost:3000/verify-email?token=abc123"]);
    expect(starttls.events.map((e) => e.command)).toEqual(["AUTH", "MAIL FROM", "RCPT TO", "DATA"]);
    expect(starttls.events.every((e) => e.secure)).toBe(true);
  });

  it("a certificate it cannot verify is refused too, before AUTH", async () => {
    const mailer = createSmtpMailer({ url: starttls.url, from: FROM, requireTls: true });
    const before = starttls.events.length;
    expect((await mailError(mailer.send(message), [starttls.pass])).reason).toBe("network");
    expect(starttls.events.slice(before)).toEqual([]);
  });

  it("smtps:// needs no upgrade; outside production STARTTLS stays opportunistic", () => {
    expect(smtpRequiresTls(production("smtps://u:p@mail.example.com:465"))).toBe(false);
    expect(smtpRequiresTls(parseConfig({ SMTP_URL: plain.url, MAIL_FROM: FROM }))).toBe(false);
  });

  it("a plaintext opt-out is explicit, and production takes it only for a relay on this machine", () => {
    const remote = "smtp://u:p@mail.example.com:25";
    const problems = (() => {
      try {
        production(remote, { SMTP_ALLOW_PLAINTEXT: "true" });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    })();
    expect(problems).toEqual([
      expect.stringMatching(/^SMTP_ALLOW_PLAINTEXT: refused in production/),
    ]);
    for (const local of [plain.url, "smtp://u:p@localhost:25", "smtp://u:p@[::1]:25"]) {
      const config = production(local, { SMTP_ALLOW_PLAINTEXT: "true" });
      expect(smtpRequiresTls(config), local).toBe(false);
    }
    // nodemailer reads options from the URL's query, which could turn TLS off again.
    for (const query of ["?requireTLS=false", "?tls.rejectUnauthorized=false", "?ignoreTLS=true"]) {
      expect(() => production(`${remote}${query}`)).toThrow(/SMTP_URL: must not carry options/);
    }
  });

  it("outside production a server without STARTTLS still gets the mail (the opt-out's default there)", async () => {
    const mailer = createSmtpMailer({ url: plain.url, from: FROM });
    await mailer.send({ ...message, subject: "plain dev mail" });
    await plain.waitFor((m) => m.subject === "plain dev mail");
    expect(plain.events.at(-4)).toEqual({ command: "AUTH", secure: false });
  });
});

describe("log mailer (the embedded default)", () => {
  it("writes each mail with its link to the log at info level", async () => {
    const lines: { line: string; level: LogLevel }[] = [];
    const logger = createLogger("info", (line, level) => lines.push({ line, level }));
    await createLogMailer(logger).send(message);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!.line);
    expect(lines[0]!.level).toBe("info");
    // The link stays usable (the documented way to get it in development); the address does not
    // appear in full.
    expect(entry).toMatchObject({ to: "b***@example.com", subject: message.subject });
    expect(entry.links).toEqual(["http://localhost:3000/verify-email?token=abc123"]);
    expect(lines[0]!.line).not.toContain("buyer@example.com");
  });

  it("in production never writes the link: it reports the mail as not sent", async () => {
    const lines: { line: string; level: LogLevel }[] = [];
    const logger = createLogger("info", (line, level) => lines.push({ line, level }));
    await createLogMailer(logger, { production: true }).send(message);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe("error");
    expect(lines[0]!.line).not.toContain("abc123");
    expect(lines[0]!.line).not.toContain("buyer@example.com");
    expect(JSON.parse(lines[0]!.line).to).toBe("b***@example.com");
    expect(JSON.parse(lines[0]!.line).msg).toMatch(/not sent: no mail provider configured/);
  });
});

describe("choosing the mailer", () => {
  const database = { kind: "pglite", db: {} } as unknown as Database;
  const runtime = {
    database,
    limiter: createMemoryRateLimiter(),
    passwords: createNodePasswordHasher(),
    resolveHost: async () => [],
    secrets: TEST_SECRETS,
    logger: createLogger("silent"),
  };
  const config = (env: Record<string, string> = {}) =>
    parseConfig({ APP_ENV: "test", LOG_LEVEL: "silent", ...env });

  it("no setting: the log; MAIL_API_KEY: the HTTP API; a runtime's mailer wins", async () => {
    expect((await buildDeps(config(), runtime)).mailer.kind).toBe("log");
    const withApi = config({ MAIL_API_KEY: "re_x", MAIL_FROM: "a@b.example" });
    expect((await buildDeps(withApi, runtime)).mailer.kind).toBe("http");
    const smtp = createSmtpMailer({ url: "smtp://u:p@127.0.0.1:1", from: "a@b.example" });
    expect((await buildDeps(withApi, { ...runtime, mailer: smtp })).mailer.kind).toBe("smtp");
  });

  it("the Node runtime gives SMTP when SMTP_URL is set, over MAIL_API_KEY", async () => {
    const both = config({
      SMTP_URL: "smtp://u:p@127.0.0.1:2525",
      MAIL_API_KEY: "re_x",
      MAIL_FROM: "a@b.example",
    });
    const node = await createNodeRuntime(both, { database, secrets: TEST_SECRETS });
    expect((await buildDeps(both, { ...node, logger: runtime.logger })).mailer.kind).toBe("smtp");
    const apiOnly = config({ MAIL_API_KEY: "re_x", MAIL_FROM: "a@b.example" });
    const plain = await createNodeRuntime(apiOnly, { database, secrets: TEST_SECRETS });
    expect(plain.mailer).toBeUndefined();
  });

  it("MAIL_FROM is required with SMTP_URL or MAIL_API_KEY; SMTP_URL must be smtp(s)://", () => {
    const alone: Record<string, string>[] = [
      { SMTP_URL: "smtp://u:p@127.0.0.1:25" },
      { MAIL_API_KEY: "re_x" },
    ];
    for (const env of alone) {
      const error = (() => {
        try {
          config(env);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain("MAIL_FROM");
    }
    expect(() => config({ SMTP_URL: "http://mail.example", MAIL_FROM: "a@b.example" })).toThrow(
      /SMTP_URL/,
    );
  });
});
