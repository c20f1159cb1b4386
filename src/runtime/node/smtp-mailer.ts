import { createTransport } from "nodemailer";
import { MailError, type MailErrorReason, type Mailer } from "../../providers/mail/types";

export interface SmtpMailerOptions {
  /** SMTP_URL: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://...:465` (TLS). */
  url: string;
  /** MAIL_FROM. */
  from: string;
  /** Connect, greeting and idle-socket deadline. Default 10000 ms. */
  timeoutMs?: number;
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
  const transport = createTransport({
    url: options.url,
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
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html !== undefined ? { html: message.html } : {}),
        });
      } catch (error) {
        throw mailError(error);
      }
    },
  };
}
