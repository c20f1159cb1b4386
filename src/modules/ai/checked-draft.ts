import type { ModelMessage } from "ai";
import type { Deps } from "../../ports";
import type { LlmRequest } from "../../providers/llm/openai-compatible";
import { type Claim, failedDraft, generateChecked, type ProductFacts } from "./claims";
import { runLlmParsedTask } from "./json-output";
import type { AiCaller, AiTask } from "./routing";

/** A message a seller sends: an e-mail has a subject, a chat message only a body. */
export interface DraftValue {
  subject: string | null | undefined;
  body: string;
}

/** A subject with nothing but placeholders and punctuation in it (`"..."`, `"[Subject]"`). */
const placeholderSubject = (subject: string) =>
  !/[\p{L}\p{N}]/u.test(subject.replace(/\[[^\]]*\]|\{[^}]*\}|<[^>]*>/g, ""));

/** The draft as one text, as the seller reads it: the claims are checked in it. */
const draftText = (v: DraftValue) => [v.subject ?? "", v.body].filter(Boolean).join("\n\n");

/**
 * Writes a draft the seller may send (a follow-up, an agent's outreach) with the products' facts,
 * checks its claims and, when one is not the catalogue's, writes it again once naming it
 * (claims.ts generateChecked), then flags what is still unverified. An empty, placeholder or
 * prompt-echo answer is unusable: the next provider is asked, and with none left the task fails
 * (a billed caller refunds). `read` turns the model's text into the draft, or undefined when it
 * is unusable in the caller's own terms.
 */
export async function generateCheckedDraft(
  deps: Deps,
  opts: {
    task: AiTask;
    request: Omit<LlmRequest, "messages">;
    prompt: string;
    facts: ProductFacts[];
    read: (text: string) => DraftValue | undefined;
    caller?: AiCaller;
  },
) {
  let last: Awaited<ReturnType<typeof runLlmParsedTask<DraftValue>>> | undefined;
  const checked = await generateChecked({
    facts: opts.facts,
    generate: async (correction) => {
      const messages: ModelMessage[] = [{ role: "user", content: opts.prompt }];
      if (correction && last) {
        messages.push(
          { role: "assistant", content: JSON.stringify(last.value) },
          { role: "user", content: correction },
        );
      }
      last = await runLlmParsedTask<DraftValue>(
        deps,
        opts.task,
        { ...opts.request, messages },
        (text) => {
          const value = opts.read(text);
          if (!value) return undefined;
          if (failedDraft(value.body, opts.prompt)) return undefined;
          if (value.subject && placeholderSubject(value.subject)) return undefined;
          return value;
        },
        opts.caller,
      );
      return draftText(last.value);
    },
  });
  // generateChecked answers the last draft it was given: `last` unless the retry threw.
  const final = last!;
  const claims: Claim[] = checked.claims;
  return { ...final, claims, flagged: checked.flagged };
}
