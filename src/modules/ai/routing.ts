import { ApiError } from "../../http/errors";
import { decryptSecret } from "../../lib/crypto";
import type { Deps } from "../../ports";
import {
  generateWithLlm,
  type LlmRequest,
  type LlmResult,
  type LlmTarget,
  streamWithLlm,
} from "../../providers/llm/openai-compatible";
import {
  type AiProviderTarget,
  mtProviders as enabledMtProviders,
  llmCandidates as providerCandidates,
} from "../ai-admin/queries";
import { type AiCaller, type AiCallLog, aiCallLog, failureOutcome } from "./call-log";

export type { AiCaller } from "./call-log";

/** Tasks routed to LLMs; each has an ordered `provider:model` list in system config `ai.routing`. */
export const AI_TASKS = [
  "translate",
  "chat",
  "marketing",
  "discovery_analysis",
  "followup_draft",
  "quotation_from_inquiry",
] as const;
export type AiTask = (typeof AI_TASKS)[number];

/** A provider as the AI features call it (ai-admin/queries.ts): key sealed, model chosen. */
export type ProviderRow = AiProviderTarget;

/** No provider could answer: the caller returns the credits and answers 503. */
export function aiUnavailable(): ApiError {
  return new ApiError(503, "The AI service is unavailable right now; your credits were returned");
}

/**
 * The LLM candidates for a task, in order, in one query: the task's `ai.routing` entries
 * (`name` or `name:model`; a name alone means the provider's first model) joined with the
 * enabled llm providers; entries naming a missing or disabled provider are skipped. An empty
 * routing list means every enabled llm provider, by name, each with its first model.
 */
export function llmCandidates(deps: Deps, task: AiTask): Promise<ProviderRow[]> {
  return providerCandidates(deps.db, { task });
}

/** The enabled machine-translation providers, by name. */
export function mtProviders(deps: Deps): Promise<ProviderRow[]> {
  return enabledMtProviders(deps.db);
}

export async function providerKey(deps: Deps, row: ProviderRow): Promise<string | undefined> {
  if (!row.api_key_ciphertext) return undefined;
  return decryptSecret(deps.keys.encryption, row.api_key_ciphertext);
}

/** A routed candidate as the LLM client's target, its key decrypted. */
export async function llmTarget(deps: Deps, row: ProviderRow): Promise<LlmTarget> {
  return {
    provider: row.name,
    baseUrl: row.base_url,
    apiKey: await providerKey(deps, row),
    model: row.model!,
    timeoutMs: row.timeout_ms,
  };
}

/**
 * One LLM call of a routed candidate, on `log` (call-log.ts): timed, its tokens and outcome
 * noted. The caller flushes the log once the task has its answer.
 */
export async function callLlm(
  deps: Deps,
  log: AiCallLog,
  task: string,
  row: ProviderRow,
  request: LlmRequest,
): Promise<LlmResult> {
  const target = await llmTarget(deps, row);
  return log.call(
    { task, provider: target.provider, model: target.model },
    () => generateWithLlm(target, request, deps.fetch),
    (result) => result,
  );
}

/**
 * Runs an LLM request on the task's providers in order until one answers. Each failure is
 * logged (provider, status, reason; never the key or the provider's text) and the next is
 * tried; when none answers, aiUnavailable(). Every attempt is on record (ai_calls) for
 * `caller`: the one that answers carries the charge's credits.
 */
export async function runLlmTask(
  deps: Deps,
  task: AiTask,
  request: LlmRequest,
  caller?: AiCaller,
): Promise<LlmResult> {
  const log = aiCallLog(deps, caller);
  try {
    for (const row of await llmCandidates(deps, task)) {
      try {
        return await callLlm(deps, log, task, row, request);
      } catch (error) {
        deps.logger.warn("llm provider failed", { task, provider: row.name, error: String(error) });
      }
    }
    throw aiUnavailable();
  } finally {
    log.flush();
  }
}

/**
 * As runLlmTask, streamed: falls back only until a provider has produced its first chunk. The
 * answering attempt goes on record when its stream ends (latency to the last chunk, tokens
 * from the stream's `usage` chunk) or breaks off (`error`).
 */
export async function streamLlmTask(
  deps: Deps,
  task: AiTask,
  request: LlmRequest,
  caller?: AiCaller,
) {
  const log = aiCallLog(deps, caller);
  for (const row of await llmCandidates(deps, task)) {
    const start = performance.now();
    let target: LlmTarget | undefined;
    try {
      target = await llmTarget(deps, row);
      const stream = await streamWithLlm(target, request, deps.fetch);
      return { ...stream, chunks: recorded(log, task, stream, start) };
    } catch (error) {
      if (target) {
        const attempt = { task, provider: target.provider, model: target.model };
        log.note({ ...attempt, outcome: failureOutcome(error) }, elapsed(start));
      }
      deps.logger.warn("llm provider failed", { task, provider: row.name, error: String(error) });
    }
  }
  log.flush();
  throw aiUnavailable();
}

const elapsed = (start: number) => Math.max(0, Math.round(performance.now() - start));

/**
 * A stream's chunks, passed through; when they end the attempt goes on record: `ok` with the
 * tokens the provider reported (read after the end, off the consumer's path), or a failure
 * when the stream broke off or its consumer left before the end.
 */
async function* recorded(
  log: AiCallLog,
  task: string,
  stream: Awaited<ReturnType<typeof streamWithLlm>>,
  start: number,
): AsyncGenerator<string> {
  const attempt = { task, provider: stream.provider, model: stream.model };
  let finished = false;
  let failure: unknown;
  try {
    for await (const chunk of stream.chunks) yield chunk;
    finished = true;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    const latency = elapsed(start);
    if (finished) {
      void stream.usage().then(({ inputTokens, outputTokens }) => {
        log.note(
          { ...attempt, outcome: "ok", tokensIn: inputTokens, tokensOut: outputTokens },
          latency,
        );
        log.flush();
      });
    } else {
      log.note({ ...attempt, outcome: failure ? failureOutcome(failure) : "cancelled" }, latency);
      log.flush();
    }
  }
}
