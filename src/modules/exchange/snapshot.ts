/**
 * The euro foreign exchange reference rates the ECB published on 2024-01-04, shipped so the
 * embedded default converts with no network. Quoted as published: one euro buys `rate` units.
 * A configured rates provider (RATES_API_URL) replaces them with newer days as it refreshes;
 * these rows stay under their own source, so a reader always sees which set answered.
 */
export const SNAPSHOT_SOURCE = "ECB (snapshot)";

export const RATES_SNAPSHOT = {
  base: "EUR",
  date: "2024-01-04",
  source: SNAPSHOT_SOURCE,
  rates: {
    USD: "1.0953",
    JPY: "157.91",
    BGN: "1.9558",
    CZK: "24.652",
    DKK: "7.4590",
    GBP: "0.86278",
    HUF: "378.85",
    PLN: "4.3460",
    RON: "4.9733",
    SEK: "11.1905",
    CHF: "0.9313",
    ISK: "150.50",
    NOK: "11.2845",
    TRY: "32.6087",
    AUD: "1.6280",
    BRL: "5.3761",
    CAD: "1.4603",
    CNY: "7.8330",
    HKD: "8.5523",
    IDR: "16994.46",
    ILS: "3.9973",
    INR: "91.1745",
    KRW: "1434.25",
    MXN: "18.6124",
    MYR: "5.0762",
    NZD: "1.7528",
    PHP: "60.833",
    SGD: "1.4546",
    THB: "37.750",
    ZAR: "20.4271",
  } as Readonly<Record<string, string>>,
} as const;
