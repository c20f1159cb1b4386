/** Digits after the decimal point of an ISO 4217 currency (USD 2, JPY 0, KWD 3). */
export function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** Minor units -> "1,234.50" without passing through a float. */
export function formatMinor(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  const negative = minor < 0;
  const text = Math.abs(minor)
    .toString()
    .padStart(digits + 1, "0");
  const whole = text.slice(0, text.length - digits) || "0";
  const fraction = digits > 0 ? `.${text.slice(text.length - digits)}` : "";
  return `${negative ? "-" : ""}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction}`;
}

/** Minor units -> major units as a number, for spreadsheet cells (display rounding only). */
export const toMajor = (minor: number, currency: string) => minor / 10 ** currencyDigits(currency);

const RATE_RE = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * A price in minor units of one currency converted with `rate` (a decimal string: one unit of
 * the source buys `rate` units of the target) into minor units of the target, exactly:
 * `round_half_even(minor x 10^-fromDigits x rate x 10^toDigits)`. Same figure as the exchange
 * module's `convert` of the major amount; BigInt all the way, no float touches it.
 */
export function convertMinor(minor: number, rate: string, fromDigits: number, toDigits: number) {
  const match = RATE_RE.exec(rate);
  if (!match || !Number.isSafeInteger(minor) || minor < 0) {
    throw new Error(`cannot convert ${minor} at rate ${rate}`);
  }
  const fraction = match[2]?.slice(1) ?? "";
  const shift = toDigits - fromDigits;
  const numerator = BigInt(minor) * BigInt(match[1] + fraction) * 10n ** BigInt(Math.max(shift, 0));
  const denominator = 10n ** BigInt(fraction.length + Math.max(-shift, 0));
  let k = numerator / denominator;
  const twice = 2n * (numerator - k * denominator);
  if (twice > denominator || (twice === denominator && k % 2n === 1n)) k += 1n;
  return k;
}
