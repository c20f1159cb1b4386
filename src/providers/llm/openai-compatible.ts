import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, type ModelMessage, streamText } from "ai";

/**
 * An LLM behind the OpenAI-compatible chat completions protocol (`POST {base}/chat/completions`,
 * Bearer key; streamed as SSE `data:` chunks ending in `[DONE]`), through the `ai` SDK. One
 * attempt per call (maxRetries 0): the caller falls back to the next routed provider instead.
 */

export interface LlmTarget {
  provider: string;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

export interface LlmRequest {
  system?: string;
  messages: ModelMessage[];
  maxOutputTokens?: number;
  temperature?: number;
}

export interface LlmResult {
  text: string;
  provider: string;
  model: string;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/** Any failure of one provider: the router logs it and tries the next. No provider text. */
export class LlmCallError extends Error {
  readonly provider: string;
  readonly status: number | undefined;
  /** `timeout`, `empty answer`, or the SDK's error name: what the call log records. */
  readonly reason: string;
  constructor(provider: string, reason: string, status?: number) {
    super(`LLM provider ${provider} failed: ${reason}${status ? ` (HTTP ${status})` : ""}`);
    this.name = "LlmCallError";
    this.provider = provider;
    this.status = status;
    this.reason = reason;
  }
}

/** Tokens as the provider reported them (OpenAI's `usage`); undefined when it did not. */
export interface LlmUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

function modelOf(target: LlmTarget, fetchImpl: typeof fetch | undefined) {
  const provider = createOpenAICompatible({
    name: target.provider,
    baseURL: target.baseUrl.replace(/\/+$/, ""),
    // A streamed answer's tokens: `stream_options: {include_usage: true}` asks for a last chunk
    // carrying `usage` (OpenAI, vLLM, Ollama, DeepSeek...); a server without it sends none.
    includeUsage: true,
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  return provider.chatModel(target.model);
}

function callError(target: LlmTarget, error: unknown): LlmCallError {
  const status = (error as { statusCode?: unknown }).statusCode;
  const name = error instanceof Error ? error.name : "unknown";
  const reason = name === "TimeoutError" || name === "AbortError" ? "timeout" : name;
  return new LlmCallError(target.provider, reason, typeof status === "number" ? status : undefined);
}

export async function generateWithLlm(
  target: LlmTarget,
  request: LlmRequest,
  fetchImpl?: typeof fetch,
): Promise<LlmResult> {
  try {
    const result = await generateText({
      model: modelOf(target, fetchImpl),
      ...(request.system ? { system: request.system } : {}),
      messages: request.messages,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(target.timeoutMs),
      ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    });
    if (!result.text.trim()) throw new LlmCallError(target.provider, "empty answer");
    return {
      text: result.text,
      provider: target.provider,
      model: target.model,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
    };
  } catch (error) {
    if (error instanceof LlmCallError) throw error;
    throw callError(target, error);
  }
}

/**
 * Streams the answer's text. The first chunk is awaited before returning, so a provider that
 * fails up front still lets the caller fall back; a failure mid-stream ends the iterator with
 * an LlmCallError.
 */
export async function streamWithLlm(
  target: LlmTarget,
  request: LlmRequest,
  fetchImpl?: typeof fetch,
): Promise<{
  provider: string;
  model: string;
  chunks: AsyncIterable<string>;
  /** The tokens, once `chunks` has ended (undefined counts when the provider sent none). */
  usage: () => Promise<LlmUsage>;
}> {
  let failure: unknown;
  const timeout = AbortSignal.timeout(target.timeoutMs);
  const result = streamText({
    model: modelOf(target, fetchImpl),
    ...(request.system ? { system: request.system } : {}),
    messages: request.messages,
    maxRetries: 0,
    abortSignal: timeout,
    ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
    onError: ({ error }) => {
      failure = error;
    },
  });
  const iterator = result.textStream[Symbol.asyncIterator]();
  const first = await iterator.next().catch((error: unknown) => {
    throw callError(target, error);
  });
  if (failure) throw callError(target, failure);
  if (timeout.aborted) throw callError(target, timeout.reason);
  if (first.done) throw new LlmCallError(target.provider, "empty answer");
  async function* chunks(): AsyncGenerator<string> {
    yield first.value as string;
    for (;;) {
      const next = await iterator.next().catch((error: unknown) => {
        throw callError(target, error);
      });
      if (failure) throw callError(target, failure);
      // The SDK ends the text stream quietly when its signal aborts: a timed-out answer would
      // pass for a finished one (stored and charged, cut short). It is a failure.
      if (timeout.aborted) throw callError(target, timeout.reason);
      if (next.done) return;
      yield next.value;
    }
  }
  const usage = async (): Promise<LlmUsage> => {
    try {
      const total = await result.totalUsage;
      return { inputTokens: total.inputTokens, outputTokens: total.outputTokens };
    } catch {
      return { inputTokens: undefined, outputTokens: undefined };
    }
  };
  return { provider: target.provider, model: target.model, chunks: chunks(), usage };
}
