import { type Logger, maskEmails } from "../../lib/logger";
import { type Mailer, recipientsOf } from "./types";

const LINK_RE = /https?:\/\/[^\s<>"]+/g;

/**
 * The embedded default when no mail provider is configured: each mail goes to the app log at
 * info level, its links listed apart, so `npm start` on a fresh clone can still verify an
 * address or reset a password by copying the link from the log. Only this mailer logs links:
 * it is meant for a developer's own machine (docs/mail.md). The address is written masked
 * (`b***@corp.example`, as the logger writes every address): the subject and the link say
 * which mail it is.
 */
export function createLogMailer(logger: Logger, options: { production?: boolean } = {}): Mailer {
  return {
    kind: "log",
    async send(message) {
      // In production the links are credentials in a shared log: say a mail was dropped, and why.
      if (options.production) {
        logger.error("mail not sent: no mail provider configured (set SMTP_URL or MAIL_API_KEY)", {
          to: maskEmails(recipientsOf(message).join(", ")),
          subject: message.subject,
        });
        return;
      }
      logger.info("mail (no mail provider configured: logged, not sent)", {
        to: maskEmails(recipientsOf(message).join(", ")),
        subject: message.subject,
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map(
                (a) => `${a.filename} (${a.content.length} bytes)`,
              ),
            }
          : {}),
        links: message.text.match(LINK_RE) ?? [],
        text: message.text,
      });
    },
  };
}
