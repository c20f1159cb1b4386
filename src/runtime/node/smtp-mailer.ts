import { createTransport } from "nodemailer";
import type { Config } from "../../config";
import {
  MailError,
  type MailErrorReason,
  type Mailer,
  recipientsOf,
} from "../../providers/mail/types";

export interface SmtpMailerOptions {
  /** SMTP_URL: `smtp://user:pass@host:587` (STARTTLS) or `smtps://...:465` (TLS from the start). */
  url: string;
  /** MAIL_FROM. */
  from: string;
  /**
   * `smtp://` only: refuse to log in or send unless STARTTLS succeeds (nodemailer `requireTLS`),
   * so a server, or a man in the middle, that offers no STARTTLS gets neither the password nor
   * the mail. Unset: STARTTLS when the server offers it, plaintext otherwise (smtpRequiresTls
   * decides from the settings; production always requires it but for a loopback relay).
   */
  requireTls?: boolean;
  /** PEM certificates to trust besides the system's (a relay with a private CA). */
  ca?: string;
  /** Connect, greeting and idle-socket deadline. Default 10000 ms. */
  timeoutMs?: number;
}

/**
 * Whether the configured SMTP_URL must upgrade with STARTTLS: in production always, unless
 * SMTP_ALLOW_PLAINTEXT is set for a relay on this machine (parseConfig refuses it for any other
 * host). `smtps://` is TLS from the first byte and needs no upgrade.
 */
export function smtpRequiresTls(
  config: Pick<Config, "APP_ENV" | "SMTP_URL" | "SMTP_ALLOW_PLAINTEXT">,
): boolean {
  if (!config.SMTP_URL || new URL(config.SMTP_URL).protocol === "smtps:") return false;
  return config.APP_ENV === "production" && !config.SMTP_ALLOW_PLAINTEXT;
}

/** nodemailer's error codes, as our reasons; anything unknown counts as the server's fault. */
const REASONS: Record<string, MailErrorReason> = {
  ECONNECTION: "network",
  ESOCKET: "network",
  EDNS: "network",
  ETLS: "network",
  ETIMEDOUT: "timeout",
  EAUTH: "rejected",
  ENOAUTH: "rejected",
  EENVELOPE: "invalid_message",
};

function mailError(error: unknown): MailError {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const status = typeof responseCode === "number" ? responseCode : undefined;
  let reason = (typeof code === "string" && REASONS[code]) || "unavailable";
  if (status !== undefined && (reason === "unavailable" || reason === "invalid_message")) {
    // A 4xx reply asks us to come back later (greylisting, throttling); 55x refuses for good.
    if (status >= 400 && status < 500) reason = "rate_limited";
    else if (status >= 550) reason = "invalid_message";
  }
  return new MailError(reason, {
    ...(status !== undefined ? { status } : {}),
    ...(typeof code === "string" ? { code } : {}),
  });
}

/** Node only: mail through an SMTP server with nodemailer, credentials from the URL. */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const timeout = options.timeoutMs ?? 10_000;
  // The URL's parts, not the URL: nodemailer would let its query (`?requireTLS=false`,
  // `?tls.rejectUnauthorized=false`) override the options below. parseConfig refuses a query.
  const url = new URL(options.url);
  const user = decodeURIComponent(url.username);
  const transport = createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ""),
    ...(url.port ? { port: Number(url.port) } : {}),
    secure: url.protocol === "smtps:",
    ...(user || url.password ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
    ...(options.requireTls ? { requireTLS: true } : {}),
    ...(options.ca ? { tls: { ca: options.ca } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    // Our messages are plain strings: never let a message field read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    kind: "smtp",
    async send(message) {
      try {
        await transport.sendMail({
          from: options.from,
          to: [...recipientsOf(message)],
          ...(message.cc?.length ? { cc: [...message.cc] } : {}),
          ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
          subject: message.subject,
          text: message.text,
          ...(message.html !== undefined ? { html: message.html } : {}),
          ...(message.attachments?.length
            ? {
                attachments: message.attachments.map((a) => ({
                  filename: a.filename,
                  content: Buffer.from(
                    a.content.buffer,
                    a.content.byteOffset,
                    a.content.byteLength,
                  ),
                  contentType: a.contentType,
                })),
              }
            : {}),
        });
      } catch (error) {
        throw mailError(error);
      }
    },
  };
}
