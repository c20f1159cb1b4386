import type { z } from "@hono/zod-openapi";
import type { Deps } from "../../ports";
import type { LlmRequest, LlmResult } from "../../providers/llm/openai-compatible";
import { type AiCaller, aiCallLog } from "./call-log";
import { type AiTask, aiUnavailable, callLlm, llmCandidates } from "./routing";

/**
 * Structured answers from an LLM: the model is asked for one JSON object; what it says is
 * read leniently (a ```json fence, or prose around the object, is tolerated) and then checked
 * strictly against a zod schema, so nothing a model invents reaches the database unchecked.
 */

export type JsonOutcome<T> =
  | { ok: true; value: T }
  /** no_json: prose, no JSON meant; invalid: JSON that does not parse or fit the schema. */
  | { ok: false; reason: "no_json" | "invalid" };

const FENCE = /```(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/;

/** The JSON object in an answer: a fenced block's content, else the outermost `{...}`. */
export function extractJsonText(text: string): string | undefined {
  const fenced = FENCE.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  const start = body.indexOf("{");
  const end = body.lastIndexOf("}");
  if (start === -1 || end < start) return undefined;
  return body.slice(start, end + 1);
}

export function parseJsonOutput<S extends z.ZodType>(
  text: string,
  schema: S,
): JsonOutcome<z.output<S>> {
  // An answer that is meant as JSON (fenced, or starting with "{"), or holds an object that
  // parses, is judged as JSON; anything else is prose (a caller may take prose as it is).
  const meantAsJson = FENCE.test(text) || text.trim().startsWith("{");
  const candidate = extractJsonText(text);
  let raw: unknown;
  try {
    if (candidate === undefined) throw new SyntaxError("no object");
    raw = JSON.parse(candidate);
  } catch {
    return { ok: false, reason: meantAsJson ? "invalid" : "no_json" };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: "invalid" };
}

/**
 * Runs an LLM task whose answer must parse (`parse` returns undefined when it does not). As
 * runLlmTask, providers are tried in the task's routing order and a provider that fails is
 * skipped; an answer that does not parse is retried on the next provider once, and a second
 * unusable answer (or none left to ask) is aiUnavailable(): 503, and billed() refunds. Every
 * attempt is on record for `caller` (an answer that did not parse as `unusable`).
 */
export async function runLlmParsedTask<T>(
  deps: Deps,
  task: AiTask,
  request: LlmRequest,
  parse: (text: string) => T | undefined,
  caller?: AiCaller,
): Promise<{ value: T; result: LlmResult }> {
  const log = aiCallLog(deps, caller);
  try {
    let unparseable = 0;
    for (const row of await llmCandidates(deps, task)) {
      let result: LlmResult;
      try {
        result = await callLlm(deps, log, task, row, request);
      } catch (error) {
        deps.logger.warn("llm provider failed", { task, provider: row.name, error: String(error) });
        continue;
      }
      const value = parse(result.text);
      if (value !== undefined) return { value, result };
      log.unusable();
      // Never log the model's text: it can carry the seller's or the buyer's data.
      deps.logger.warn("llm answer unusable", { task, provider: row.name });
      unparseable += 1;
      if (unparseable >= 2) break;
    }
    throw aiUnavailable();
  } finally {
    log.flush();
  }
}
