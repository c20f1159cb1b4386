import { z } from "@hono/zod-openapi";

/**
 * ISO 4217 currencies in circulation (list one, 2025), without the funds, precious metals and
 * test codes. Committed rather than read from `Intl.supportedValuesOf("currency")`: that list
 * follows each runtime's ICU (Node and workerd ship different ones, and both still carry
 * withdrawn codes such as HRK), and a code must mean the same on every deployable.
 */
// biome-ignore format: a table of codes reads better ten to a line
const ISO_4217_CODES = [
  "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN",
  "BAM", "BBD", "BDT", "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL",
  "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CLP", "CNY",
  "COP", "CRC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP",
  "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD",
  "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR",
  "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF",
  "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL",
  "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR",
  "MVR", "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR",
  "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR",
  "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD",
  "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB",
  "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX",
  "USD", "UYU", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAF", "XCD",
  "XCG", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWG",
] as const;

export type CurrencyCode = (typeof ISO_4217_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ISO_4217_CODES);

export const isCurrencyCode = (code: string): code is CurrencyCode => KNOWN.has(code);

const UNKNOWN = { error: "Not a known ISO 4217 currency code, e.g. USD" };
/** A plain boolean check, so the parsed value stays a `string` for the columns it goes to. */
const known = (code: string) => KNOWN.has(code);

/** A currency as every body takes it: an upper-case code in circulation (`ZZZ` is a 422). */
export const currencyCode = z
  .string()
  .refine(known, UNKNOWN)
  .openapi({ example: "USD", description: "ISO 4217 code in upper case" });

/** The exchange queries' form: trimmed and upper-cased first, so `usd` still means USD. */
export const lenientCurrencyCode = z.string().trim().toUpperCase().refine(known, UNKNOWN);
