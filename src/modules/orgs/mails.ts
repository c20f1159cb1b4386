import type { MailMessage } from "../../providers/mail/types";

const PRODUCT = "Trade Assistant";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The invitation mail: the link in plain text (docs/mail.md) and as a clickable HTML link. */
export function invitationMail(p: {
  orgName: string;
  role: string;
  link: string;
  days: number;
}): Omit<MailMessage, "to"> {
  const paragraphs = [
    `You are invited to join ${p.orgName} on ${PRODUCT} as ${p.role}. Open this link to accept:`,
    `The link works once and expires in ${p.days} day${p.days === 1 ? "" : "s"}. Accept it signed in with this e-mail address, once it is verified.`,
    "If you did not expect this, ignore this mail.",
  ];
  const text = [paragraphs[0], p.link, ...paragraphs.slice(1)].join("\n\n");
  const html = [
    `<p>${escapeHtml(paragraphs[0]!)}</p>`,
    `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.link)}</a></p>`,
    ...paragraphs.slice(1).map((line) => `<p>${escapeHtml(line)}</p>`),
  ].join("\n");
  return { subject: `Join ${p.orgName} on ${PRODUCT}`, text: `${text}\n`, html };
}
