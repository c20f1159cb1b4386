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
 * Runs an LLM request on the task's providers in order until one answers. Each failure is
 * logged (provider, status, reason; never the key or the provider's text) and the next is
 * tried; when none answers, aiUnavailable().
 */
export async function runLlmTask(
  deps: Deps,
  task: AiTask,
  request: LlmRequest,
): Promise<LlmResult> {
  for (const row of await llmCandidates(deps, task)) {
    try {
      return await generateWithLlm(await llmTarget(deps, row), request, deps.fetch);
    } catch (error) {
      deps.logger.warn("llm provider failed", { task, provider: row.name, error: String(error) });
    }
  }
  throw aiUnavailable();
}

/** As runLlmTask, streamed: falls back only until a provider has produced its first chunk. */
export async function streamLlmTask(deps: Deps, task: AiTask, request: LlmRequest) {
  for (const row of await llmCandidates(deps, task)) {
    try {
      return await streamWithLlm(await llmTarget(deps, row), request, deps.fetch);
    } catch (error) {
      deps.logger.warn("llm provider failed", { task, provider: row.name, error: String(error) });
    }
  }
  throw aiUnavailable();
}
