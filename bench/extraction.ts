import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The inquiry extraction's accuracy per field (issue #24, ADR 0111): the golden set of 30 buyer
 * inquiries (test/golden/inquiries, 6 each in English, Spanish, German, Chinese and Arabic, with
 * the scripted model answer and the expected fields) runs through POST
 * /api/v1/quotations/from-inquiry against a fake model answering the scripted JSON, and every
 * field the code owns is scored: matching (kind and product), units, Incoterms, ports
 * (UN/LOCODE), country, deadline, certifications, payment terms, language, unpriced lines,
 * missing fields, the questions' language and the next move.
 *
 * test/api/h4-inquiry-golden.test.ts asserts 100% per field; standalone
 * (`npx tsx bench/extraction.ts`) this prints the table on an in-process app and PGlite.
 */

const GOLDEN_DIR = join(fileURLToPath(new URL(".", import.meta.url)), "../test/golden/inquiries");
const GOLDEN_LANGUAGES = ["en", "es", "de", "zh", "ar"] as const;

export interface GoldenProduct {
  name: string;
  sku: string;
  price?: number;
  currency?: string;
  aliases: string[];
}

interface GoldenItem {
  match: "exact" | "alias" | "fuzzy" | "none";
  /** The catalogue product's SKU, null for none. */
  product: string | null;
  unit: string | null;
  quantity: number | null;
}

export interface GoldenCase {
  id: string;
  language: string;
  inquiry: string;
  /** What the fake model answers: the raw forms a model plausibly returns. */
  model: Record<string, unknown>;
  expected: {
    items: GoldenItem[];
    incoterm: string | null;
    port_of_loading: string | null;
    port_of_destination: string | null;
    destination_country: string | null;
    deadline: string | null;
    certifications: string[];
    payment_terms: string | null;
    missing_fields: string[];
    next_move: "draft" | "ask" | "out_of_scope";
  };
}

export function loadGolden(): { catalogue: GoldenProduct[]; cases: GoldenCase[] } {
  const read = (name: string) => JSON.parse(readFileSync(join(GOLDEN_DIR, name), "utf8"));
  const catalogue = read("catalogue.json").catalogue as GoldenProduct[];
  const cases = GOLDEN_LANGUAGES.flatMap((l) => read(`${l}.json`).cases as GoldenCase[]);
  return { catalogue, cases };
}

/** A POST of the app as the golden user: status and parsed body. */
export type GoldenCaller = (path: string, json: unknown) => Promise<{ status: number; body: any }>;

/** Creates the golden catalogue through the products API; product id -> SKU. */
export async function seedCatalogue(
  call: GoldenCaller,
  catalogue: GoldenProduct[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const product of catalogue) {
    const { status, body } = await call("/api/v1/products", product);
    if (status !== 201)
      throw new Error(`product ${product.sku}: ${status} ${JSON.stringify(body)}`);
    ids.set(body.id, product.sku);
  }
  return ids;
}

export interface GoldenResult {
  golden: GoldenCase;
  status: number;
  body: any;
}

/** Each case through the route, the fake model scripted with the case's answer. */
export async function runGolden(
  call: GoldenCaller,
  script: (answer: string) => void,
  cases: GoldenCase[],
): Promise<GoldenResult[]> {
  const results: GoldenResult[] = [];
  for (const golden of cases) {
    script(JSON.stringify(golden.model));
    const { status, body } = await call("/api/v1/quotations/from-inquiry", {
      inquiry_text: golden.inquiry,
    });
    results.push({ golden, status, body });
  }
  return results;
}

/** How the templated questions to the buyer begin, per language (lib/inquiry-fields.ts). */
const QUESTION_OPENINGS: Record<string, string> = {
  en: "Thank you for your inquiry.",
  es: "Gracias por su consulta.",
  de: "Vielen Dank für Ihre Anfrage.",
  zh: "感谢您的询价。",
  ar: "شكراً لاستفساركم.",
};

export const SCORED_FIELDS = [
  "item.match",
  "item.product",
  "item.unit",
  "item.quantity",
  "item.unpriced",
  "incoterm",
  "port_of_loading",
  "port_of_destination",
  "destination_country",
  "deadline",
  "certifications",
  "payment_terms",
  "language",
  "missing_fields",
  "questions",
  "next_move",
] as const;
type ScoredField = (typeof SCORED_FIELDS)[number];

export interface FieldScore {
  field: ScoredField;
  correct: number;
  total: number;
  /** Each miss: the case, what was expected and what came. */
  misses: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Accuracy per field over the results; a case that did not answer 201 misses every field. */
export function scoreGolden(
  results: GoldenResult[],
  skuOf: Map<string, string>,
  catalogue: GoldenProduct[],
): FieldScore[] {
  const scores = new Map<ScoredField, FieldScore>(
    SCORED_FIELDS.map((f) => [f, { field: f, correct: 0, total: 0, misses: [] }]),
  );
  const priced = new Set(catalogue.filter((p) => p.price !== undefined).map((p) => p.sku));
  const check = (field: ScoredField, id: string, expected: unknown, actual: unknown) => {
    const score = scores.get(field)!;
    score.total++;
    if (same(expected, actual)) score.correct++;
    else
      score.misses.push(
        `${id}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
      );
  };
  for (const { golden, status, body } of results) {
    const ok = status === 201;
    const x = ok ? body.extracted : undefined;
    const e = golden.expected;
    e.items.forEach((item, i) => {
      const got = x?.items?.[i];
      const id = `${golden.id} item ${i}`;
      check("item.match", id, item.match, got?.match);
      check("item.product", id, item.product, got?.product_id ? skuOf.get(got.product_id) : null);
      check("item.unit", id, item.unit, got?.unit);
      check("item.quantity", id, item.quantity, got?.quantity);
      const unpriced = item.product === null || !priced.has(item.product);
      check("item.unpriced", id, unpriced, got?.unpriced);
    });
    const id = golden.id;
    check("incoterm", id, e.incoterm, x?.incoterm);
    check("port_of_loading", id, e.port_of_loading, x?.port_of_loading?.locode ?? null);
    check("port_of_destination", id, e.port_of_destination, x?.port_of_destination?.locode ?? null);
    check("destination_country", id, e.destination_country, x?.destination_country);
    check("deadline", id, e.deadline, x?.deadline);
    check("certifications", id, e.certifications, x?.certifications);
    check("payment_terms", id, e.payment_terms, x?.payment_terms);
    check("language", id, golden.language, x?.language);
    check("missing_fields", id, e.missing_fields, ok ? body.missing_fields : undefined);
    check("next_move", id, e.next_move, ok ? body.next_move : undefined);
    // A message to the buyer exactly when there is something to ask, in the inquiry's language.
    const questions: unknown = ok ? body.questions : undefined;
    const wanted = e.next_move === "ask" ? QUESTION_OPENINGS[golden.language] : null;
    check(
      "questions",
      id,
      wanted,
      typeof questions === "string" && wanted && questions.startsWith(wanted) ? wanted : questions,
    );
  }
  return [...scores.values()];
}

/** The table the bench prints: one row per field. */
export function renderScores(scores: FieldScore[]): string {
  const rows = scores.map(
    (s) =>
      `| ${s.field} | ${s.correct}/${s.total} | ${s.total ? ((100 * s.correct) / s.total).toFixed(1) : "-"}% |`,
  );
  return ["| field | correct | accuracy |", "|---|---|---|", ...rows].join("\n");
}

export interface ExtractionResult {
  cases: number;
  scores: FieldScore[];
}

/** The bench report's section: accuracy per field, then each miss. */
export function renderExtraction(r: ExtractionResult): string {
  const lines = [
    `Inquiry extraction (issue #24): golden set of ${r.cases} inquiries (${GOLDEN_LANGUAGES.join(", ")}), scripted model, fields the code owns`,
    renderScores(r.scores),
  ];
  for (const s of r.scores) for (const miss of s.misses) lines.push(`  miss ${s.field}: ${miss}`);
  return lines.join("\n");
}

/**
 * The golden set through the real app in-process on PGlite (its own migrated database), the
 * model a fake OpenAI-compatible server answering each inquiry's scripted JSON.
 */
export async function measureExtraction(): Promise<ExtractionResult> {
  const [
    { createApp },
    { parseConfig },
    { buildDeps },
    { createLogger },
    { createStripeProvider },
    { createMemoryRateLimiter },
    { openPgliteDatabase },
    { migrateDatabase },
    { seedDefaults },
    { nodeResolver },
    { createNodePasswordHasher },
    { MIGRATIONS_FOLDER },
    { adjustCredits },
    { startFakeOpenAi },
    { addAiProvider, setAiRouting },
  ] = await Promise.all([
    import("../src/app"),
    import("../src/config"),
    import("../src/deps"),
    import("../src/lib/logger"),
    import("../src/providers/payment/stripe"),
    import("../src/providers/ratelimit/memory"),
    import("../src/runtime/node/database"),
    import("../src/db/migrate"),
    import("../src/runtime/seed-defaults"),
    import("../src/runtime/node/dns"),
    import("../src/runtime/node/password"),
    import("../src/runtime/node/project-root"),
    import("../src/modules/credits/service"),
    import("../test/fakes/openai"),
    import("../test/support/ai"),
  ]);
  const database = await openPgliteDatabase("memory://");
  await migrateDatabase(database, seedDefaults, MIGRATIONS_FOLDER);
  const deps = await buildDeps(
    parseConfig({
      APP_ENV: "test",
      LOG_LEVEL: "silent",
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    }),
    {
      database,
      limiter: createMemoryRateLimiter(),
      passwords: createNodePasswordHasher(),
      resolveHost: nodeResolver,
      secrets: {
        jwtSecret: "bench-jwt-secret-0123456789abcdef0123456789",
        csrfSecret: "bench-csrf-secret-0123456789abcdef01234567",
        encryptionKey: "bench-encryption-key-0123456789abcdef0123",
      },
      logger: createLogger("silent"),
      stripe: createStripeProvider,
    },
  );
  const app = createApp(deps);
  const fake = await startFakeOpenAi();
  try {
    await addAiProvider(deps, {
      name: "golden",
      kind: "llm",
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      models: ["golden-model"],
    });
    await setAiRouting(deps, "quotation_from_inquiry", ["golden"]);
    const post = async (path: string, json: unknown, token?: string) => {
      const res = await app.request(path, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": "10.9.8.7",
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(json),
      });
      return { status: res.status, body: await res.json() };
    };
    const registered = await post("/api/v1/auth/register", {
      email: `golden-${Date.now()}@example.com`,
      password: "correct horse battery",
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
    const token = registered.body.access_token as string;
    const userId = registered.body.user.id as string;
    await adjustCredits(deps, { userId, delta: 1000, actorId: userId, reason: "bench" });
    const call: GoldenCaller = (path, json) => post(path, json, token);
    const { catalogue, cases } = loadGolden();
    const skuOf = await seedCatalogue(call, catalogue);
    const results = await runGolden(call, (answer) => fake.reply(() => answer), cases);
    return { cases: cases.length, scores: scoreGolden(results, skuOf, catalogue) };
  } finally {
    await fake.close();
    await database.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  measureExtraction()
    .then((r) => console.log(renderExtraction(r)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
