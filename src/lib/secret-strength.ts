/**
 * How guessable a secret setting is, estimated with zxcvbn (@zxcvbn-ts/core): the log10 of the
 * guesses an attacker who knows keyboard runs, alphabet and digit sequences, repeats, dates
 * and (where loaded) dictionaries would need. docs/adr/0086-secrets-smtp-and-logs.md has the
 * rule and why the dictionaries are only loaded on Node.
 */
import { type OptionsType, ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs } from "@zxcvbn-ts/language-common";

/**
 * The threshold, in zxcvbn's units: a character no pattern explains counts 10 guesses, so 10^30
 * means at least 30 such characters; from a 16-symbol alphabet (hex) or wider that is 120 bits
 * or more, from base64 180. A setting made of 32 random bytes (base64 43 characters, hex 64)
 * estimates 10^40 or more; the phrases and runs people paste estimate 10^4 to 10^29.
 */
const MIN_SECRET_GUESSES_LOG10 = 30;

/** log10 of the estimated guesses for a secret. */
export type SecretEstimator = (secret: string) => number;

/**
 * An estimator over the keyboard layouts and the structural patterns; with `dictionary`, also
 * over those word lists. One l33t substitution at most: the default tries hundreds of
 * combinations and takes seconds per 40-character secret; one catches `p@ssword`-style
 * placeholders at a few milliseconds.
 */
export function createSecretEstimator(dictionary?: OptionsType["dictionary"]): SecretEstimator {
  const zxcvbn = new ZxcvbnFactory({
    graphs: adjacencyGraphs,
    ...(dictionary ? { dictionary } : {}),
    l33tMaxSubstitutions: 1,
  });
  return (secret) => zxcvbn.check(secret).guessesLog10;
}

let patterns: SecretEstimator | undefined;

/**
 * The estimator every runtime can afford (about 14 KiB gzipped): keyboard runs, sequences,
 * repeats and dates, no word lists. Built on first use, so only production start-up pays.
 */
export function patternEstimator(): SecretEstimator {
  patterns ??= createSecretEstimator();
  return patterns;
}

/**
 * One problem line per weak setting, naming it and never quoting its value (a start-up error
 * goes to the log, and a near-miss secret is still most of the real one).
 */
export function weakSecretProblems(
  settings: readonly (readonly [name: string, value: string | undefined])[],
  estimate: SecretEstimator,
): string[] {
  const problems: string[] = [];
  for (const [name, value] of settings) {
    if (value && estimate(value) < MIN_SECRET_GUESSES_LOG10) {
      problems.push(
        `${name}: too guessable for production (use 32 random bytes, e.g. \`openssl rand -base64 32\`)`,
      );
    }
  }
  return problems;
}
