import { CUSTOMER_STATUSES, type CustomerStatus } from "../../db/schema";
import { isCurrencyCode } from "../../lib/currency";

/** A cell the row validator refused; `column` is the header as the seller wrote it. */
export class CellError extends Error {}

const INT32_MAX = 2_147_483_647;

function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

export function parseCurrency(text: string): string {
  const code = text.trim().toUpperCase();
  if (!isCurrencyCode(code)) throw new CellError("must be a known currency code (e.g. USD)");
  return code;
}

/**
 * A decimal amount to integer minor units of `currency`, exactly (string arithmetic, no
 * floats): "1,234.5" USD -> 123450; more decimals than the currency has is an error.
 */
export function parseMoney(text: string, currency: string): number {
  const cleaned = text.replace(/[\s,]/g, "").replace(/^[$¥￥€£]/, "");
  const match = /^(\d+)(?:\.(\d+))?$/.exec(cleaned);
  if (!match) {
    if (/^-/.test(cleaned)) throw new CellError("must not be negative");
    throw new CellError("must be an amount such as 1234.50");
  }
  const digits = currencyDigits(currency);
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > digits) {
    throw new CellError(`has more than ${digits} decimal places for ${currency}`);
  }
  const minor =
    BigInt(match[1]!) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, "0") || "0");
  if (minor > BigInt(INT32_MAX)) throw new CellError("is too large");
  return Number(minor);
}

/** Minor units back to the decimal text parseMoney reads. */
export function formatMoney(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(minor).padStart(digits + 1, "0");
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

export function parsePositiveInt(text: string): number {
  const cleaned = text.replace(/[\s,]/g, "");
  if (!/^\d+(\.0+)?$/.test(cleaned)) throw new CellError("must be a whole number");
  const value = Number.parseInt(cleaned, 10);
  if (value < 1 || value > INT32_MAX) throw new CellError("must be between 1 and 2147483647");
  return value;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

export function parseEmail(text: string): string {
  const email = text
    .trim()
    .toLowerCase()
    .replace(/^mailto:/, "");
  if (email.length > 254 || !EMAIL.test(email)) throw new CellError("is not a valid email address");
  return email;
}

const STATUS_ALIASES: Record<string, CustomerStatus> = {
  新客户: "new",
  新: "new",
  已联系: "contacted",
  谈判中: "negotiating",
  洽谈中: "negotiating",
  已报价: "quoted",
  成交: "won",
  已成交: "won",
  流失: "lost",
  已流失: "lost",
  休眠: "dormant",
};

export function parseStatus(text: string): CustomerStatus {
  const lower = text.trim().toLowerCase();
  if ((CUSTOMER_STATUSES as readonly string[]).includes(lower)) return lower as CustomerStatus;
  const alias = STATUS_ALIASES[text.trim()];
  if (alias) return alias;
  throw new CellError(`must be one of ${CUSTOMER_STATUSES.join(", ")}`);
}

/** YYYY-MM-DD (or with slashes) as midnight UTC, or an ISO 8601 date-time with an offset. */
export function parseDateTime(text: string): string {
  const trimmed = text.trim();
  const day = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(trimmed);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(Date.UTC(y, m - 1, d));
    if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
      throw new CellError("is not a valid date");
    }
    return date.toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(trimmed)) {
    const ms = Date.parse(trimmed.replace(" ", "T"));
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  throw new CellError("must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone");
}

export function parseTags(text: string): string[] {
  const tags = text
    .split(/[,;，；、|]/)
    .map((t) => t.trim())
    .filter((t) => t !== "");
  const unique = [...new Set(tags)];
  if (unique.length > 50) throw new CellError("has more than 50 tags");
  if (unique.some((t) => t.length > 50)) throw new CellError("has a tag longer than 50 characters");
  return unique;
}

export function limitText(max: number) {
  return (text: string): string => {
    if (text.length > max) throw new CellError(`is longer than ${max} characters`);
    return text;
  };
}

export function parseHsCode(text: string): string {
  const code = text.trim();
  if (!/^\d{4}(\.?\d{2}){0,3}$/.test(code))
    throw new CellError("must be an HS code of 4-10 digits");
  return code;
}
