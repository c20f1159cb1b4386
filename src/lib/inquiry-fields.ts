import { foldText } from "./incoterms";
import { foldPortName } from "./ports";

/**
 * The small normalisers of a buyer's inquiry (issue #24, ADR 0111) beside Incoterms
 * (incoterms.ts), ports (ports.ts) and units (units.ts): country, deadline, certifications,
 * payment terms, the inquiry's language and the message asking the buyer for what is missing.
 */

/** Country names buyers write that the ICU names do not give. */
const COUNTRY_EXTRA: Record<string, string> = {
  usa: "US",
  "u s a": "US",
  "united states of america": "US",
  america: "US",
  eeuu: "US",
  "ee uu": "US",
  uk: "GB",
  "u k": "GB",
  england: "GB",
  britain: "GB",
  "great britain": "GB",
  uae: "AE",
  "u a e": "AE",
  emirates: "AE",
  eau: "AE",
  vae: "AE",
  الامارات: "AE",
  阿联酋: "AE",
  ksa: "SA",
  saudi: "SA",
  "saudi arabia": "SA",
  السعوديه: "SA",
  沙特: "SA",
  مصر: "EG",
  holland: "NL",
  "the netherlands": "NL",
  "republic of korea": "KR",
  korea: "KR",
  韩国: "KR",
  "viet nam": "VN",
};

const REGION_LANGS = ["en", "es", "de", "zh", "ar", "fr"] as const;
/** Withdrawn or grouping codes ICU still names (DD is named "Germany"): never an answer. */
const NOT_COUNTRIES = new Set("AN BU CS DD EU EZ FX NT QO QU SU TP UN YD YU ZR ZZ".split(" "));
let countryIndex: Map<string, string> | undefined;

/** Every region's name in the six languages (Intl.DisplayNames), built once on first use. */
function countries(): Map<string, string> {
  if (countryIndex) return countryIndex;
  const index = new Map<string, string>();
  for (const [name, code] of Object.entries(COUNTRY_EXTRA)) index.set(foldPortName(name), code);
  try {
    const namers = REGION_LANGS.map((l) => new Intl.DisplayNames([l], { type: "region" }));
    const A = 65;
    for (let a = 0; a < 26; a++) {
      for (let b = 0; b < 26; b++) {
        const code = String.fromCharCode(A + a, A + b);
        if (NOT_COUNTRIES.has(code)) continue;
        for (const namer of namers) {
          const name = namer.of(code);
          if (name && name !== code) {
            const key = foldPortName(name);
            if (!index.has(key)) index.set(key, code);
          }
        }
      }
    }
  } catch {
    // A runtime without region names: the extra names and the codes still work.
  }
  countryIndex = index;
  return index;
}

/** An ISO 3166-1 alpha-2 code from a code or a country's name in a common language. */
export function normalizeCountry(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const code = trimmed.toUpperCase();
    return code === "UK" ? "GB" : code;
  }
  return countries().get(foldPortName(trimmed));
}

/** A stated deadline as an ISO date (YYYY-MM-DD, or YYYY/MM/DD); undefined when it is not one. */
export function normalizeDeadline(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const m = /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(raw);
  if (!m) return undefined;
  const iso = `${m[1]}-${m[2]!.padStart(2, "0")}-${m[3]!.padStart(2, "0")}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

/** Certification marks in their usual spelling. */
const CERTIFICATIONS: Record<string, string> = {
  ce: "CE",
  "ce mark": "CE",
  "ce marking": "CE",
  ce认证: "CE",
  rohs: "RoHS",
  reach: "REACH",
  ul: "UL",
  "ul listed": "UL",
  etl: "ETL",
  fcc: "FCC",
  cb: "CB",
  gs: "GS",
  tuv: "TÜV",
  "tuv gs": "TÜV GS",
  saso: "SASO",
  "saso iecee": "SASO",
  saber: "SABER",
  gcc: "GCC",
  "g mark": "G-Mark",
  "g-mark": "G-Mark",
  gmark: "G-Mark",
  ecas: "ECAS",
  eqm: "EQM",
  ccc: "CCC",
  "3c": "CCC",
  "3c认证": "CCC",
  bis: "BIS",
  soncap: "SONCAP",
  coc: "CoC",
  fda: "FDA",
  halal: "Halal",
  حلال: "Halal",
  "iso 9001": "ISO 9001",
  iso9001: "ISO 9001",
  "iso 14001": "ISO 14001",
  "iso 13485": "ISO 13485",
  erp: "ErP",
  emc: "EMC",
  lvd: "LVD",
  sgs: "SGS",
  iecee: "IECEE",
  kc: "KC",
  pse: "PSE",
  saa: "SAA",
  rcm: "RCM",
  dlc: "DLC",
  "energy star": "Energy Star",
};

/** Words around a mark that are not its name ("CE certificate", "certificación CE", "CE认证"). */
const CERT_WORDS =
  /\s*(certificates?|certifications?|certified|certification|zertifikate?|certificados?|certificaci[oó]n|认证|证书|شهادة|شهادات)\s*/giu;

/** Certifications in their usual spelling, deduplicated; unknown ones kept as written. */
export function normalizeCertifications(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const cert of raw) {
    const bare = cert.replace(CERT_WORDS, " ").trim() || cert.trim();
    const name = CERTIFICATIONS[foldText(bare)] ?? bare;
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

const PAYMENT: [RegExp, string][] = [
  [
    /^(t\s*\/\s*t|tt|telegraphic transfer|wire transfer|bank transfer|transferencia( bancaria)?|uberweisung|电汇|حواله( بنكيه)?|تحويل بنكي)$/,
    "T/T",
  ],
  [
    /^(l\s*\/\s*c|lc|letter of credit|l\/c at sight|carta de credito|akkreditiv|信用证|اعتماد مستندي|خطاب اعتماد)$/,
    "L/C",
  ],
  [/^(d\s*\/\s*p|documents against payment)$/, "D/P"],
  [/^(d\s*\/\s*a|documents against acceptance)$/, "D/A"],
];

/** Payment terms: a bare method in its usual short form (T/T, L/C, D/P, D/A), else as written. */
export function normalizePaymentTerms(raw: string | null | undefined): string | undefined {
  if (!raw?.trim()) return undefined;
  const folded = foldPortName(raw);
  for (const [pattern, name] of PAYMENT) if (pattern.test(folded)) return name;
  return raw.trim();
}

const QUESTION_LANGUAGES = ["en", "es", "de", "zh", "ar"] as const;
type QuestionLanguage = (typeof QUESTION_LANGUAGES)[number];

/**
 * The inquiry's language: its script for Chinese and Arabic, else the model's reading, else
 * common words of Spanish and German, else English. A primary subtag, lower case.
 */
export function detectLanguage(text: string, modelLanguage: string | null | undefined): string {
  const letters = text.replace(/[\s\d\p{P}\p{S}]/gu, "");
  const han = (letters.match(/\p{Script=Han}/gu) ?? []).length;
  const arabic = (letters.match(/\p{Script=Arabic}/gu) ?? []).length;
  if (letters.length > 0 && han / letters.length > 0.2) return "zh";
  if (letters.length > 0 && arabic / letters.length > 0.2) return "ar";
  const model = modelLanguage?.trim().toLowerCase().split(/[-_]/)[0];
  if (model && /^[a-z]{2,3}$/.test(model)) return model;
  const words = ` ${foldText(text).replace(/[^\p{L}\s]/gu, " ")} `;
  const count = (list: string[]) => list.filter((w) => words.includes(` ${w} `)).length;
  const es = count([
    "hola",
    "necesitamos",
    "cotizacion",
    "precio",
    "estimado",
    "cantidad",
    "por",
    "favor",
    "unidades",
    "puerto",
    "gracias",
  ]);
  const de = count([
    "wir",
    "bitte",
    "angebot",
    "benotigen",
    "sehr",
    "geehrte",
    "stuck",
    "hafen",
    "mit",
    "und",
    "fur",
  ]);
  if (es >= 2 && es >= de) return "es";
  if (de >= 2) return "de";
  return "en";
}

const TEMPLATES: Record<
  QuestionLanguage,
  {
    intro: string;
    quantity: (name: string) => string;
    incoterm: string;
    destination: string;
    outro: string;
  }
> = {
  en: {
    intro:
      "Thank you for your inquiry. To prepare an accurate quotation, could you please let us know:",
    quantity: (n) => `the quantity you need of ${n}`,
    incoterm: "the delivery terms (Incoterm) you prefer, e.g. FOB, CIF or DDP",
    destination: "the destination port or country",
    outro: "Best regards",
  },
  es: {
    intro: "Gracias por su consulta. Para preparar una cotización precisa, ¿podría indicarnos:",
    quantity: (n) => `la cantidad que necesita de ${n}`,
    incoterm: "las condiciones de entrega (Incoterm) que prefiere, p. ej. FOB, CIF o DDP",
    destination: "el puerto o país de destino",
    outro: "Saludos cordiales",
  },
  de: {
    intro:
      "Vielen Dank für Ihre Anfrage. Damit wir Ihnen ein genaues Angebot erstellen können, teilen Sie uns bitte mit:",
    quantity: (n) => `die benötigte Menge von ${n}`,
    incoterm: "die gewünschten Lieferbedingungen (Incoterm), z. B. FOB, CIF oder DDP",
    destination: "den Bestimmungshafen oder das Bestimmungsland",
    outro: "Mit freundlichen Grüßen",
  },
  zh: {
    intro: "感谢您的询价。为了给您准确报价，请告知：",
    quantity: (n) => `${n}的采购数量`,
    incoterm: "您希望的贸易术语（Incoterm），例如 FOB、CIF 或 DDP",
    destination: "目的港或目的国",
    outro: "谢谢！",
  },
  ar: {
    intro: "شكراً لاستفساركم. لإعداد عرض سعر دقيق، يرجى إعلامنا بما يلي:",
    quantity: (n) => `الكمية المطلوبة من ${n}`,
    incoterm: "شروط التسليم (Incoterm) المفضلة لديكم، مثل FOB أو CIF أو DDP",
    destination: "ميناء أو بلد الوصول",
    outro: "مع أطيب التحيات",
  },
};

export type MissingField = `items[${number}].quantity` | "incoterm" | "destination";

/**
 * The message asking the buyer for the missing fields, in the inquiry's language when it has a
 * template (en, es, de, zh, ar), else the model's own message, else English.
 */
export function buyerQuestions(
  language: string,
  missing: readonly MissingField[],
  itemNames: readonly string[],
  modelQuestions: string | null | undefined,
): string | null {
  if (missing.length === 0) return null;
  const templated = (QUESTION_LANGUAGES as readonly string[]).includes(language);
  if (!templated && modelQuestions?.trim()) return modelQuestions.trim();
  const t = TEMPLATES[templated ? (language as QuestionLanguage) : "en"];
  const lines = missing.map((field) => {
    const item = /^items\[(\d+)\]\.quantity$/.exec(field);
    if (item) return t.quantity(itemNames[Number(item[1])] ?? "");
    return field === "incoterm" ? t.incoterm : t.destination;
  });
  return [t.intro, ...lines.map((l) => `- ${l}`), t.outro].join("\n");
}
