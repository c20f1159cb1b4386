/** A file sent with a message (a quotation's PDF or .xlsx). */
interface MailAttachment {
  /** The name the recipient's mail program shows and saves it under. */
  filename: string;
  /** Its MIME type, e.g. `application/pdf`. */
  contentType: string;
  content: Uint8Array;
}

/**
 * The mail port: one message to one address or a few. Provider code only: no database, no
 * config. `cc`, `replyTo` and `attachments` are for mails a member sends to a buyer (a quotation,
 * docs/mail.md); the account mails use `to`, `subject`, `text` and `html` alone.
 */
export interface MailMessage {
  to: string | readonly string[];
  cc?: readonly string[];
  /** Where the recipient's answer goes (the member who sent it); the sender stays MAIL_FROM. */
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: readonly MailAttachment[];
}

/** `to` as a list. */
export const recipientsOf = (message: Pick<MailMessage, "to">): readonly string[] =>
  typeof message.to === "string" ? [message.to] : message.to;

export interface Mailer {
  /** `smtp`, `http` or `log`: which provider carries the mail (logged at start-up and in tests). */
  readonly kind: "smtp" | "http" | "log";
  /** Resolves once the provider accepted the message; rejects with MailError otherwise. */
  send(message: MailMessage): Promise<void>;
}

export type MailErrorReason =
  /** The provider could not be reached (DNS, connect, TLS, reset). */
  | "network"
  | "timeout"
  /** The provider refused our credentials (401/403, SMTP 535): misconfiguration. */
  | "rejected"
  /** The provider refused this message (bad sender, bad recipient, validation). */
  | "invalid_message"
  | "rate_limited"
  /** 5xx, or an answer that is not the provider's protocol. */
  | "unavailable";

/**
 * A mail was not accepted. `code` is the provider's machine code (Resend `name`, SMTP reply
 * code); the provider's own text is never carried, since it may echo addresses or keys.
 */
export class MailError extends Error {
  readonly reason: MailErrorReason;
  readonly status?: number;
  readonly code?: string;
  constructor(reason: MailErrorReason, details: { status?: number; code?: string } = {}) {
    const suffix = [details.status !== undefined ? `status ${details.status}` : "", details.code]
      .filter(Boolean)
      .join(" ");
    super(`Mail not sent: ${reason}${suffix ? ` (${suffix})` : ""}`);
    this.name = "MailError";
    this.reason = reason;
    if (details.status !== undefined) this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
  }
}
