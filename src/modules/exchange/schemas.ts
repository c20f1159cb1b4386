import { z } from "@hono/zod-openapi";
import { lenientCurrencyCode } from "../../lib/currency";
import { decimalFromJsonNumber } from "../../providers/rates/frankfurter";
import { MANUAL_RATE_MAX } from "./service";

const currency = (name: string, example: string) =>
  lenientCurrencyCode.openapi({ param: { name, in: "query" }, example });

export const RatesQuery = z.object({
  base: currency("base", "USD").optional().default("EUR"),
});

export const ConvertQuery = z.object({
  amount: z
    .string()
    .trim()
    .min(1)
    .openapi({
      param: { name: "amount", in: "query" },
      example: "100",
      description:
        "Major units of `from` as a plain decimal: non-negative, at most 15 integer and 8 fraction digits",
    }),
  from: currency("from", "USD"),
  to: currency("to", "CNY"),
});

const decimal = (example: string) => z.string().openapi({ example });

const ageDays = z.number().int().nonnegative().openapi({
  example: 1,
  description: "Whole days from the rate's date to today (UTC); quotations warn past 7",
});

const RateProvenanceSchema = z
  .object({
    source: z.string().openapi({ example: "ExchangeRate-API" }),
    date: z.string().openapi({ example: "2024-01-04" }),
    age_days: ageDays,
  })
  .openapi("ExchangeRateProvenance");

export const RatesSchema = z
  .object({
    base: z.string().openapi({ example: "USD" }),
    date: z.string().openapi({ example: "2024-01-04", description: "Publication day used" }),
    source: z.string().openapi({
      example: "ECB",
      description:
        "Who published `base`'s own set: `ECB` when refreshed from RATES_API_URL, `ECB (snapshot)` for the rates shipped with the build, `ExchangeRate-API` for the wide source (RATES_WIDE_API_URL), `manual` for a rate an admin set. Each quote's own source is in `quotes`",
    }),
    age_days: ageDays,
    snapshot: z.boolean().openapi({
      example: false,
      description:
        "true: the shipped snapshot answers because no refresh has brought a newer day (offline, or RATES_API_URL=off)",
    }),
    rates: z.record(z.string(), z.string()).openapi({
      example: { CNY: "7.15155665115", EUR: "0.912991874372" },
      description: "One unit of `base` in each quote currency, decimal strings",
    }),
    quotes: z.record(z.string(), RateProvenanceSchema).openapi({
      description: "Where each quote's rate came from: its source, date and age",
    }),
  })
  .openapi("ExchangeRates");

export const ConversionSchema = z
  .object({
    amount: decimal("100"),
    from: z.string().openapi({ example: "USD" }),
    to: z.string().openapi({ example: "CNY" }),
    rate: decimal("7.15155665115"),
    result: decimal("715.16"),
    date: z.string().openapi({ example: "2024-01-04", description: "Day of the rate used" }),
    source: z.string().openapi({
      example: "ECB",
      description:
        "`ECB`, `ECB (snapshot)`, `ExchangeRate-API`, or `manual` when an admin's rate was used",
    }),
    age_days: ageDays,
  })
  .openapi("Conversion");

/** `:currency` of the admin's manual rates: any ISO 4217 code in circulation. */
export const ManualRateParam = z.object({
  currency: lenientCurrencyCode.openapi({
    param: { name: "currency", in: "path" },
    example: "AED",
    description: "ISO 4217 code",
  }),
});

/** Canonical decimal: no sign, no exponent, up to 12 integer and 12 fraction digits. */
const MANUAL_RATE_RE = /^(0|[1-9]\d{0,11})(\.\d{1,12})?$/;

export const ManualRateBody = z
  .object({
    base: lenientCurrencyCode.openapi({ example: "USD", description: "ISO 4217 code" }),
    rate: z
      .union([z.string().trim(), z.number().finite()])
      .transform((v, ctx) => {
        const text = typeof v === "number" ? decimalFromJsonNumber(String(v)) : v;
        const valid =
          MANUAL_RATE_RE.test(text) && Number(text) > 0 && Number(text) <= MANUAL_RATE_MAX;
        if (!valid) {
          ctx.addIssue({
            code: "custom",
            message: `Must be a positive decimal up to ${MANUAL_RATE_MAX} with at most 12 decimals`,
          });
          return z.NEVER;
        }
        return text.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
      })
      .openapi({
        example: "3.6725",
        description: `1 \`base\` = \`rate\` units of the currency: a positive decimal (string, or a JSON number) up to ${MANUAL_RATE_MAX}, at most 12 decimals`,
      }),
  })
  .strict()
  .openapi("ManualExchangeRateBody");

export const ManualRateSchema = z
  .object({
    currency: z.string().openapi({ example: "AED" }),
    base: z.string().openapi({ example: "USD" }),
    rate: z.string().openapi({ example: "3.6725" }),
    date: z.string().openapi({ example: "2024-01-04", description: "The UTC day it was set" }),
    source: z.literal("manual"),
    updated_at: z.string(),
  })
  .openapi("ManualExchangeRate");

const sourceOutcome = z
  .object({
    status: z.enum(["refreshed", "skipped", "fresh", "failed"]),
    source: z.string().optional(),
    date: z.string().optional(),
    currencies: z.number().int().optional(),
    written: z.number().int().optional(),
    reason: z.string().optional().openapi({
      description:
        "skipped: `not_configured`; failed: `network`, `timeout`, `http_status`, `bad_response`, `rate_limited`, `provider_error`",
    }),
  })
  .openapi("ExchangeRatesSourceOutcome");

export const RefreshOutcomeSchema = z
  .object({ ecb: sourceOutcome, wide: sourceOutcome })
  .openapi("ExchangeRatesRefresh");
