import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { llmCandidates, runLlmTask, streamLlmTask } from "../../src/modules/ai/routing";
import { generateWithLlm, LlmCallError } from "../../src/providers/llm/openai-compatible";
import { MtCallError, translateWithMt } from "../../src/providers/mt/deepl";
import { type FakeDeepl, startFakeDeepl } from "../fakes/deepl";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { addAiProvider, clearAiProviders, setAiRouting } from "../support/ai";
import { createTestContext } from "../support/harness";

const ctx = await createTestContext();
const { deps } = ctx;
let a: FakeOpenAi;
let b: FakeOpenAi;
let deepl: FakeDeepl;

beforeAll(async () => {
  [a, b, deepl] = await Promise.all([
    startFakeOpenAi("sk-a"),
    startFakeOpenAi("sk-b"),
    startFakeDeepl(),
  ]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close(), deepl.close()]);
});

describe("OpenAI-compatible client", () => {
  it("sends the model, system prompt and messages with the key, and returns the text", async () => {
    a.fail(null);
    a.reply((messages, model) => `${model}: ${messages.at(-1)?.content}`);
    const result = await generateWithLlm(
      { provider: "a", baseUrl: a.url, apiKey: "sk-a", model: "gpt-x", timeoutMs: 5000 },
      { system: "Be brief", messages: [{ role: "user", content: "hello" }] },
    );
    expect(result).toMatchObject({ text: "gpt-x: hello", provider: "a", model: "gpt-x" });
    const sent = a.requests.at(-1)!;
    expect(sent.authorization).toBe("Bearer sk-a");
    expect(sent.messages).toEqual([
      { role: "system", content: "Be brief" },
      { role: "user", content: "hello" },
    ]);
  });

  it("turns 500, 429, a wrong key, an empty answer and a timeout into LlmCallError", async () => {
    const target = { provider: "a", baseUrl: a.url, apiKey: "sk-a", model: "m", timeoutMs: 300 };
    const request = { messages: [{ role: "user" as const, content: "x" }] };
    for (const mode of ["http-500", "http-429", "empty", "hang", "non-json"] as const) {
      a.fail(mode);
      await expect(generateWithLlm(target, request)).rejects.toBeInstanceOf(LlmCallError);
    }
    a.fail(null);
    await expect(generateWithLlm({ ...target, apiKey: "wrong" }, request)).rejects.toThrow(
      /HTTP 401/,
    );
  });
});

describe("DeepL-protocol client", () => {
  it("translates with the auth header and upper-case language codes", async () => {
    deepl.fail(null);
    const out = await translateWithMt(
      { provider: "deepl", baseUrl: deepl.url, apiKey: deepl.apiKey, timeoutMs: 5000 },
      { text: "你好", targetLang: "en-gb" },
    );
    expect(out).toEqual({ text: "[EN-GB] 你好", detectedSourceLang: "zh", provider: "deepl" });
    expect(deepl.requests.at(-1)).toMatchObject({
      authorization: `DeepL-Auth-Key ${deepl.apiKey}`,
      target_lang: "EN-GB",
    });
    deepl.fail("http-456");
    await expect(
      translateWithMt(
        { provider: "deepl", baseUrl: deepl.url, apiKey: deepl.apiKey, timeoutMs: 5000 },
        { text: "x", targetLang: "de" },
      ),
    ).rejects.toThrow(MtCallError);
    deepl.fail(null);
  });
});

describe("routing", () => {
  it("follows ai.routing in order with name:model entries and falls back on failure", async () => {
    await clearAiProviders(deps);
    await addAiProvider(deps, {
      name: "alpha",
      kind: "llm",
      baseUrl: a.url,
      apiKey: "sk-a",
      models: ["a-1", "a-2"],
    });
    await addAiProvider(deps, {
      name: "beta",
      kind: "llm",
      baseUrl: b.url,
      apiKey: "sk-b",
      models: ["b-1"],
    });
    await addAiProvider(deps, {
      name: "off",
      kind: "llm",
      baseUrl: b.url,
      models: ["o"],
      enabled: false,
    });

    await setAiRouting(deps, "chat", []);
    expect((await llmCandidates(deps, "chat")).map((c) => `${c.name}:${c.model}`)).toEqual([
      "alpha:a-1",
      "beta:b-1",
    ]);
    await setAiRouting(deps, "chat", ["beta", "off", "missing", "alpha:a-2"]);
    expect((await llmCandidates(deps, "chat")).map((c) => `${c.name}:${c.model}`)).toEqual([
      "beta:b-1",
      "alpha:a-2",
    ]);

    a.fail(null);
    a.reply((messages) => `echo: ${messages.at(-1)?.content}`);
    b.fail("http-500");
    const answer = await runLlmTask(deps, "chat", { messages: [{ role: "user", content: "hi" }] });
    expect(answer).toMatchObject({ provider: "alpha", model: "a-2", text: "echo: hi" });

    a.fail("http-500");
    await expect(
      runLlmTask(deps, "chat", { messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toMatchObject({ status: 503 });
    a.fail(null);
    b.fail(null);
  });

  it("streams from the first provider that starts answering", async () => {
    await setAiRouting(deps, "chat", ["beta", "alpha"]);
    b.fail("http-429");
    a.fail(null);
    a.reply(() => "a long streamed answer in several chunks");
    const { provider, chunks } = await streamLlmTask(deps, "chat", {
      messages: [{ role: "user", content: "go" }],
    });
    let text = "";
    for await (const chunk of chunks) text += chunk;
    expect(provider).toBe("alpha");
    expect(text).toBe("a long streamed answer in several chunks");
    b.fail(null);
  });
});
