import { z } from "@hono/zod-openapi";
import { lenientCurrencyCode } from "../../lib/currency";

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

export const RatesSchema = z
  .object({
    base: z.string().openapi({ example: "USD" }),
    date: z.string().openapi({ example: "2024-01-04", description: "Publication day used" }),
    source: z.string().openapi({
      example: "ECB",
      description:
        "Who published the rates: `ECB` when refreshed from RATES_API_URL, `ECB (snapshot)` for the rates shipped with the build",
    }),
    snapshot: z.boolean().openapi({
      example: false,
      description:
        "true: the shipped snapshot answers because no refresh has brought a newer day (offline, or RATES_API_URL=off)",
    }),
    rates: z.record(z.string(), z.string()).openapi({
      example: { CNY: "7.15155665115", EUR: "0.912991874372" },
      description: "One unit of `base` in each quote currency, decimal strings",
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
    date: z.string().openapi({ example: "2024-01-04" }),
    source: z.string().openapi({ example: "ECB" }),
  })
  .openapi("Conversion");
