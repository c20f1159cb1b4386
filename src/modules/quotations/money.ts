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
