/**
 * Rates as a buyer reads them on a document: 6 significant digits (what the ECB itself
 * publishes), always next to the day and the source they come from. The stored and computed
 * rates keep 12 digits; this is display rounding only, so a document's prices are never
 * recomputed from the shortened figure.
 */

/** Significant digits of a rate shown to buyers. */
const DISPLAY_RATE_DIGITS = 6;

const DECIMAL_RE = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/**
 * A positive decimal string rounded half to even to `digits` significant digits, exactly
 * (BigInt, no float). Trailing zeros are kept because they are significant, as the PDF prints
 * them: "7.15146535196" -> "7.15147", "157.91" -> "157.910", "0.0000644504150176" ->
 * "0.0000644504", "16994.46" -> "16994.5", "1234567.8" -> "1234570".
 */
function significantRate(rate: string, digits = DISPLAY_RATE_DIGITS): string {
  const match = DECIMAL_RE.exec(rate);
  if (!match) throw new Error(`not a decimal rate: ${rate}`);
  const fraction = match[2] ?? "";
  // rate = n x 10^-scale, with n's leading zeros dropped.
  const n = BigInt(`${match[1]}${fraction}`);
  if (n === 0n) return "0";
  const scale = fraction.length;
  const drop = n.toString().length - digits;
  if (drop <= 0) return shift(n * 10n ** BigInt(-drop), -scale + drop);
  const unit = 10n ** BigInt(drop);
  let k = n / unit;
  const twice = 2n * (n - k * unit);
  if (twice > unit || (twice === unit && k % 2n === 1n)) k += 1n;
  // A carry to one more digit (999999.5 -> 1000000) keeps `digits` significant digits.
  if (k.toString().length > digits) return shift(k / 10n, drop + 1 - scale);
  return shift(k, drop - scale);
}

/** k x 10^exp as a plain decimal string. */
function shift(k: bigint, exp: number): string {
  if (exp >= 0) return (k * 10n ** BigInt(exp)).toString();
  const text = k.toString().padStart(-exp + 1, "0");
  return `${text.slice(0, exp)}.${text.slice(exp)}`;
}

/** A rate as documents show it: `1 USD = 7.15147 CNY, ECB 2024-01-04` (as the PDF does). */
export function displayRateLine(r: {
  from: string;
  to: string;
  rate: string;
  date: string;
  source: string;
}): string {
  return `1 ${r.from} = ${significantRate(r.rate)} ${r.to}, ${r.source} ${r.date}`;
}
