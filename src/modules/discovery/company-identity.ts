/**
 * How a discovered company and a customer are recognised as the same company (issue #24, item
 * 5; ADR 0112): by the registrable host of a website or an email address (lower-case, `www.`
 * dropped, a free-mail provider's domain never counts), or by the normalised name (lower-case,
 * punctuation dropped, legal suffixes such as Ltd, LLC, GmbH, S.A., 有限公司 stripped).
 * Pure functions: the query (queries/customer-match.ts) fetches candidates, these decide.
 */

/** Mail domains shared by many companies: a match on one of them says nothing. */
const FREE_MAIL = new Set([
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "yahoo.co.uk",
  "yahoo.co.jp",
  "ymail.com",
  "hotmail.com",
  "outlook.com",
  "live.com",
  "msn.com",
  "aol.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "gmx.de",
  "gmx.net",
  "web.de",
  "t-online.de",
  "mail.ru",
  "yandex.ru",
  "yandex.com",
  "qq.com",
  "foxmail.com",
  "163.com",
  "126.com",
  "yeah.net",
  "sina.com",
  "sina.cn",
  "sohu.com",
  "aliyun.com",
  "naver.com",
  "daum.net",
  "rediffmail.com",
  "zoho.com",
  "mail.com",
  "libero.it",
  "orange.fr",
  "free.fr",
  "wanadoo.fr",
  "laposte.net",
  "seznam.cz",
  "wp.pl",
  "o2.pl",
  "interia.pl",
  "bol.com.br",
  "uol.com.br",
  "terra.com.br",
]);

/** Second-level labels under which a country code registers names (example.co.uk, example.com.cn). */
const SECOND_LEVEL = new Set([
  "co",
  "com",
  "net",
  "org",
  "gov",
  "edu",
  "ac",
  "or",
  "ne",
  "go",
  "gob",
  "mil",
  "ltd",
  "plc",
  "biz",
  "info",
]);

/**
 * The registrable host of a host name: its last two labels, or three under a country code's
 * second level (`shop.acme.co.uk` -> `acme.co.uk`). An approximation of the public suffix list,
 * which the bundle does not carry; undefined for an IP address or a single label.
 */
export function registrableHost(host: string): string | undefined {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^www\./, "");
  if (!h.includes(".") || /^[\d.]+$/.test(h) || h.includes(":")) return undefined;
  const labels = h.split(".").filter(Boolean);
  if (labels.length < 2) return undefined;
  const last = labels.at(-1)!;
  const second = labels.at(-2)!;
  const take = last.length === 2 && SECOND_LEVEL.has(second) && labels.length >= 3 ? 3 : 2;
  return labels.slice(-take).join(".");
}

/** The registrable host of a website (a bare domain is read as https://), else undefined. */
export function websiteDomain(website: string | null | undefined): string | undefined {
  if (!website) return undefined;
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(website) ? website : `https://${website}`;
  try {
    return registrableHost(new URL(candidate).hostname);
  } catch {
    return undefined;
  }
}

/** The registrable host of an email address's domain, unless it is a free-mail provider's. */
export function emailDomain(email: string | null | undefined): string | undefined {
  if (!email) return undefined;
  const at = email.lastIndexOf("@");
  if (at < 1) return undefined;
  const domain = registrableHost(email.slice(at + 1));
  return domain && !FREE_MAIL.has(domain) ? domain : undefined;
}

/** Legal-form words dropped from the end of a name (after punctuation became spaces). */
const LEGAL_SUFFIXES = new Set([
  "ltd",
  "limited",
  "llc",
  "llp",
  "lp",
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "company",
  "gmbh",
  "mbh",
  "ag",
  "kg",
  "ohg",
  "ug",
  "sa",
  "sas",
  "sarl",
  "sl",
  "slu",
  "srl",
  "spa",
  "sae",
  "bv",
  "nv",
  "plc",
  "pty",
  "pte",
  "oy",
  "ab",
  "as",
  "asa",
  "aps",
  "kk",
  "ltda",
  "cia",
  "sro",
  "zoo",
  "sp",
  "jsc",
  "ooo",
  "pvt",
  "bhd",
  "sdn",
  "tbk",
  "pt",
  "group",
  "holding",
  "holdings",
  "and",
]);

/** Chinese (and Japanese) legal forms at the end of a name, longest first. */
const CJK_SUFFIXES = [
  "股份有限公司",
  "有限责任公司",
  "有限責任公司",
  "有限公司",
  "株式会社",
  "集团",
  "集團",
  "公司",
];

/**
 * A company name as compared: NFKC, lower-case, CJK legal forms and trailing Western legal forms
 * dropped (`S.A.` and `L.L.C.` too: their letters are joined back), punctuation as single spaces.
 * A name that would be left empty keeps its words. Empty when nothing is left at all.
 */
export function normaliseCompanyName(name: string | null | undefined): string {
  if (!name) return "";
  let text = name.normalize("NFKC").toLowerCase().trim();
  for (let changed = true; changed; ) {
    changed = false;
    const trimmed = text.replace(/[\s\p{P}\p{S}]+$/u, "");
    for (const suffix of CJK_SUFFIXES) {
      if (trimmed.endsWith(suffix) && trimmed.length > suffix.length) {
        text = trimmed.slice(0, -suffix.length);
        changed = true;
        break;
      }
    }
  }
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const kept = [...words];
  while (kept.length > 1) {
    const last = kept.at(-1)!;
    if (LEGAL_SUFFIXES.has(last)) {
      kept.pop();
      continue;
    }
    // Initials written with dots or spaces: "s a", "l l c", "b v".
    let joined = "";
    let n = 0;
    for (let i = kept.length - 1; i >= 1 && kept[i]!.length === 1 && n < 3; i--) {
      joined = kept[i] + joined;
      n++;
      if (n >= 2 && LEGAL_SUFFIXES.has(joined)) break;
    }
    if (n >= 2 && LEGAL_SUFFIXES.has(joined) && kept.length > n) {
      kept.splice(kept.length - n, n);
      continue;
    }
    break;
  }
  return (kept.length > 0 ? kept : words).join(" ");
}

/** A normalised name long enough to identify a company (3 characters; 2 in CJK scripts). */
export function matchableName(normalised: string): boolean {
  const length = [...normalised.replace(/\s+/g, "")].length;
  return length >= 3 || (length === 2 && /\p{Script=Han}/u.test(normalised));
}
