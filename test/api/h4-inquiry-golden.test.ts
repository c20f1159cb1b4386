import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GoldenCaller,
  loadGolden,
  renderScores,
  runGolden,
  SCORED_FIELDS,
  scoreGolden,
  seedCatalogue,
} from "../../bench/extraction";
import { adjustCredits } from "../../src/modules/credits/service";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// Issue #24 "Done when": the golden set of 30 buyer inquiries (test/golden/inquiries: 6 each in
// English, Spanish, German, Chinese and Arabic) runs through the real route against a fake
// model scripted per inquiry, and every field the code around the model owns scores 100%.

const ctx = await createTestContext();
const { app, deps } = ctx;
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi("sk-golden");
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "golden",
    kind: "llm",
    baseUrl: fake.url,
    apiKey: fake.apiKey,
    models: ["golden-model"],
  });
  await setAiRouting(deps, "quotation_from_inquiry", ["golden"]);
});
afterAll(async () => {
  await fake.close();
});

describe("the inquiry golden set", () => {
  it("has 30 inquiries, 6 per language, each with its scripted model answer", () => {
    const { cases, catalogue } = loadGolden();
    expect(cases).toHaveLength(30);
    for (const language of ["en", "es", "de", "zh", "ar"]) {
      expect(cases.filter((c) => c.language === language)).toHaveLength(6);
    }
    expect(new Set(cases.map((c) => c.id)).size).toBe(30);
    for (const c of cases) {
      expect((c.model.items as unknown[]).length).toBe(c.expected.items.length);
      for (const item of c.expected.items) {
        if (item.product) expect(catalogue.map((p) => p.sku)).toContain(item.product);
      }
    }
    // The set covers what the code owns: every match kind, every next move, missing quantities.
    const items = cases.flatMap((c) => c.expected.items);
    expect(new Set(items.map((i) => i.match))).toEqual(
      new Set(["exact", "alias", "fuzzy", "none"]),
    );
    expect(new Set(cases.map((c) => c.expected.next_move))).toEqual(
      new Set(["draft", "ask", "out_of_scope"]),
    );
    expect(items.filter((i) => i.quantity === null).length).toBeGreaterThanOrEqual(5);
  });

  it("scores 100% on every field the code owns, through the route", async () => {
    const user = await registerUser(app);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: 100,
      actorId: user.userId,
      reason: "golden",
    });
    const post: GoldenCaller = (path, json) => call(app, path, { token: user.accessToken, json });
    const { catalogue, cases } = loadGolden();
    const skuOf = await seedCatalogue(post, catalogue);
    const results = await runGolden(post, (answer) => fake.reply(() => answer), cases);
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    // The model was asked once per inquiry, with the inquiry in its prompt.
    expect(fake.requests).toHaveLength(30);
    cases.forEach((c, i) => {
      expect(fake.requests[i]!.messages.at(-1)!.content).toContain(c.inquiry);
    });
    const scores = scoreGolden(results, skuOf, catalogue);
    expect(scores.map((s) => s.field)).toEqual([...SCORED_FIELDS]);
    const misses = scores.flatMap((s) => s.misses.map((m) => `${s.field}: ${m}`));
    expect(misses, renderScores(scores)).toEqual([]);
    for (const s of scores) {
      expect(s.total, s.field).toBeGreaterThanOrEqual(30);
      expect(s.correct, s.field).toBe(s.total);
    }
  }, 300_000);
});
