import type { MailMessage } from "../../providers/mail/types";

/** The texts of the account mails; each carries its link in plain text (docs/mail.md). */
type Mail = Omit<MailMessage, "to">;

const PRODUCT = "Trade Assistant";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Plain text plus the same paragraphs as HTML, links made clickable. */
function mail(subject: string, paragraphs: string[], link?: string): Mail {
  const html = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (link) html.splice(1, 0, `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`);
  const text = link ? [paragraphs[0], link, ...paragraphs.slice(1)] : paragraphs;
  return { subject, text: `${text.join("\n\n")}\n`, html: html.join("\n") };
}

const hours = (minutes: number) =>
  minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? "" : "s"}` : `${minutes} minutes`;

export function verifyEmailMail(link: string, ttlMinutes: number): Mail {
  return mail(
    `Confirm your e-mail address for ${PRODUCT}`,
    [
      `Open this link to confirm that this address belongs to your ${PRODUCT} account:`,
      `The link works once and expires in ${hours(ttlMinutes)}.`,
      "If you did not create an account, ignore this mail.",
    ],
    link,
  );
}

/**
 * The verification of an address in ADMIN_EMAILS: the link is a password reset, so whoever
 * holds this mailbox chooses the password, and only then does the account become admin (ADR
 * 0084). Says nothing of the admin role: the mail may reach someone who never asked for it.
 */
export function claimAddressMail(link: string, ttlMinutes: number): Mail {
  return mail(
    `Confirm your e-mail address and choose your ${PRODUCT} password`,
    [
      `An account was opened with this address. Open this link to confirm the address and choose the account's password:`,
      `The link works once and expires in ${hours(ttlMinutes)}. Choosing the password signs out every session opened before, and any password given at sign-up stops working.`,
      "If you did not create an account, ignore this mail: the account stays unconfirmed.",
    ],
    link,
  );
}

export function resetPasswordMail(link: string, ttlMinutes: number): Mail {
  return mail(
    `Reset your ${PRODUCT} password`,
    [
      "Someone asked to reset the password of your account. Open this link to choose a new one:",
      `The link works once and expires in ${hours(ttlMinutes)}. Resetting signs out every session.`,
      "If you did not ask for this, ignore this mail: your password stays as it is.",
    ],
    link,
  );
}

export function changeEmailMail(link: string, ttlMinutes: number): Mail {
  return mail(
    `Confirm your new e-mail address for ${PRODUCT}`,
    [
      `Open this link to make this address the sign-in address of your ${PRODUCT} account:`,
      `The link works once and expires in ${hours(ttlMinutes)}. Until it is used, nothing changes.`,
      "If you did not ask for this, ignore this mail.",
    ],
    link,
  );
}

/** To the old address: the owner learns of a change they may not have made. */
export function emailChangeNoticeMail(newEmail: string): Mail {
  return mail(`Your ${PRODUCT} e-mail address is being changed`, [
    `Someone signed in to your account asked to change its e-mail address to ${newEmail}. It changes once a link sent there is used.`,
    "If this was not you, sign in and change your password now: that signs out every other session.",
  ]);
}
