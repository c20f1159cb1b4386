/**
 * Incoterms 2020 from what a buyer writes (issue #24, ADR 0111): the code itself anywhere in
 * the text ("FOB Shanghai", "cif hamburg"), the rule's name in English, Spanish, German,
 * Chinese or Arabic ("free on board", "franco a bordo", "frei an Bord", "离岸价", "فوب"), the
 * trade's shorthands ("C&F", "CNF" -> CFR) and the withdrawn terms mapped to their successor
 * with a note ("DDU" -> DAP, "DAT" -> DPU, "DEQ" -> DAT -> DPU, "DES" -> DAP, "DAF" -> DAP).
 */

export const INCOTERMS_2020 = [
  "EXW",
  "FCA",
  "CPT",
  "CIP",
  "DAP",
  "DPU",
  "DDP",
  "FAS",
  "FOB",
  "CFR",
  "CIF",
] as const;
export type Incoterm = (typeof INCOTERMS_2020)[number];

/** Terms the buyer's side still writes, with the 2020 rule that replaced them. */
const WITHDRAWN: Record<string, Incoterm> = {
  DDU: "DAP",
  DAF: "DAP",
  DES: "DAP",
  DAT: "DPU",
  DEQ: "DPU",
};

/** Shorthands of a 2020 code (no note: they mean the same rule). */
const SHORTHANDS: [RegExp, Incoterm][] = [
  [/(^|[^a-z])(c\s*&\s*f|c\s*\+\s*f|cnf|c\s*and\s*f)([^a-z]|$)/, "CFR"],
  [/(^|[^a-z])(c\s*&\s*i\s*&?\s*f)([^a-z]|$)/, "CIF"],
];

/**
 * Names of the rules, longest first within a code so "carriage and insurance paid" is not read
 * as "carriage paid". Matched against the lower-cased text without accents.
 */
const NAMES: [Incoterm, string[]][] = [
  [
    "CIP",
    [
      "carriage and insurance paid",
      "carriage & insurance paid",
      "transporte y seguro pagados",
      "frachtfrei versichert",
      "运费和保险费付至",
      "运费保险费付至",
      "أجور النقل والتأمين مدفوعة",
    ],
  ],
  ["CPT", ["carriage paid to", "transporte pagado hasta", "frachtfrei", "运费付至"]],
  [
    "DPU",
    [
      "delivered at place unloaded",
      "entregada en lugar descargada",
      "geliefert benannter ort entladen",
      "卸货地交货",
    ],
  ],
  [
    "DDP",
    [
      "delivered duty paid",
      "entregada derechos pagados",
      "entregado derechos pagados",
      "geliefert verzollt",
      "完税后交货",
      "完税交货",
      "双清包税",
      "تسليم مع دفع الرسوم",
      "التسليم خالص الرسوم",
    ],
  ],
  [
    "DAP",
    [
      "delivered at place",
      "entregada en lugar",
      "entregado en lugar",
      "geliefert benannter ort",
      "目的地交货",
      "التسليم في المكان",
    ],
  ],
  [
    "CIF",
    [
      "cost insurance and freight",
      "cost, insurance and freight",
      "cost insurance freight",
      "coste seguro y flete",
      "costo seguro y flete",
      "costo, seguro y flete",
      "coste, seguro y flete",
      "kosten versicherung und fracht",
      "kosten, versicherung und fracht",
      "到岸价",
      "成本加保险费加运费",
      "成本保险加运费",
      "التكلفة والتأمين والشحن",
      "سيف",
    ],
  ],
  [
    "CFR",
    [
      "cost and freight",
      "coste y flete",
      "costo y flete",
      "kosten und fracht",
      "成本加运费",
      "التكلفة والشحن",
    ],
  ],
  [
    "FAS",
    [
      "free alongside ship",
      "franco al costado del buque",
      "libre al costado del buque",
      "frei langsseite schiff",
      "船边交货",
    ],
  ],
  [
    "FOB",
    [
      "free on board",
      "franco a bordo",
      "libre a bordo",
      "frei an bord",
      "离岸价",
      "船上交货",
      "装运港船上交货",
      "التسليم على ظهر السفينة",
      "تسليم على ظهر السفينة",
      "فوب",
    ],
  ],
  [
    "FCA",
    [
      "free carrier",
      "franco transportista",
      "libre transportista",
      "frei frachtfuhrer",
      "货交承运人",
    ],
  ],
  [
    "EXW",
    [
      "ex works",
      "ex-works",
      "exworks",
      "en fabrica",
      "franco fabrica",
      "ab werk",
      "工厂交货",
      "出厂价",
      "工厂价",
      "تسليم أرض المصنع",
      "تسليم ارض المصنع",
    ],
  ],
];

/** Lower case without accents (ä -> a, é -> e), so "längsseite" matches "langsseite". */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

const FOLDED_NAMES = NAMES.map(([term, names]) => [term, names.map(foldText)] as const);

export interface IncotermReading {
  code: Incoterm;
  /** Set when the buyer's term is not itself an Incoterms 2020 rule (e.g. DDU). */
  note?: string;
}

const CODE = new RegExp(
  `(^|[^A-Z])(${[...INCOTERMS_2020, ...Object.keys(WITHDRAWN)].join("|")})(?![A-Z])`,
);

/** The Incoterms 2020 rule a text names, or undefined when it names none. */
export function normalizeIncoterm(raw: string | null | undefined): IncotermReading | undefined {
  if (!raw) return undefined;
  const code = CODE.exec(raw.toUpperCase())?.[2];
  if (code) {
    const successor = WITHDRAWN[code];
    if (successor) {
      return {
        code: successor,
        note: `${code} is not an Incoterms 2020 rule; read as ${successor}, its successor`,
      };
    }
    return { code: code as Incoterm };
  }
  const folded = foldText(raw);
  for (const [pattern, term] of SHORTHANDS) if (pattern.test(folded)) return { code: term };
  for (const [term, names] of FOLDED_NAMES) {
    if (names.some((name) => folded.includes(name))) return { code: term };
  }
  return undefined;
}

/**
 * Whether the seller's obligation ends in the seller's own country (E and F rules): the buyer's
 * destination does not change the price then.
 */
export const deliversAtOrigin = (code: Incoterm) =>
  code === "EXW" || code === "FCA" || code === "FAS" || code === "FOB";
