import type { OrgFaqStatus } from "../../db/schema";
import { fromJsonb } from "../../db/sql";
import { forbidden, notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { translateWithMt } from "../../providers/mt/deepl";
import { aiCallLog } from "../ai/call-log";
import { mtProviders, providerKey } from "../ai/routing";
import {
  acceptReply,
  callerMayWrite,
  countOrgFaqHit,
  deleteOrgFaq,
  insertOrgFaq,
  listOrgFaqRows,
  type OrgFaqMatch,
  type OrgFaqRow,
  orgFaqMatch,
  updateOrgFaq,
} from "./queries";
import type { OrgFaqInput, OrgFaqPatchInput, OrgFaqQueryInput } from "./schemas";

/**
 * pg_trgm similarity of an entry's question to the asked one (translated into the entry's
 * language when they differ) at or above this is a match: the platform FAQ's threshold
 * (ai-admin/queries.ts), "the same question, worded nearly the same".
 */
export const ORG_FAQ_THRESHOLD = 0.55;
/** Languages of entries a question is translated into, at most, per chat turn. */
const MAX_LANGUAGES = 3;

const faqNotFound = () => notFound("FAQ entry not found");
const adminOnly = () =>
  forbidden("The organisation's FAQ is written by its owner and admins", "forbidden");

function faqOut(row: OrgFaqRow) {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    language: row.language,
    status: row.status as OrgFaqStatus,
    hit_count: Number(row.hit_count),
    last_hit_at: iso(row.last_hit_at),
    source_reply_id: row.source_reply_id,
    created_by: row.created_by,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

async function requireWriter(deps: Deps, userId: string) {
  if (!(await callerMayWrite(deps.db, userId))) throw adminOnly();
}

/** The organisation's FAQ, newest first; every member reads it (candidates included). */
export async function listOrgFaq(deps: Deps, userId: string, query: OrgFaqQueryInput) {
  const { rows, total } = await listOrgFaqRows(deps.db, { userId, ...query });
  return { items: rows.map(faqOut), total, page: query.page, size: query.size };
}

export async function createOrgFaq(deps: Deps, userId: string, input: OrgFaqInput) {
  await requireWriter(deps, userId);
  const row = await insertOrgFaq(deps.db, {
    id: deps.ids.uuid(),
    userId,
    ...input,
    at: nowIso(deps),
  });
  if (!row) throw adminOnly();
  return faqOut(row);
}

/** Edit or approve (`status: active`) an entry of the caller's organisation; else 404. */
export async function patchOrgFaq(deps: Deps, userId: string, id: string, patch: OrgFaqPatchInput) {
  await requireWriter(deps, userId);
  const row = await updateOrgFaq(deps.db, { userId, id, patch, at: nowIso(deps) });
  if (!row) throw faqNotFound();
  return faqOut(row);
}

export async function removeOrgFaq(deps: Deps, userId: string, id: string) {
  await requireWriter(deps, userId);
  if (!(await deleteOrgFaq(deps.db, { userId, id }))) throw faqNotFound();
}

/**
 * The seller sent this reply suggestion (translations.replies[].id of one of their own
 * translations): it becomes a candidate of the organisation's FAQ, question the buyer's
 * message, answer the reply, in the buyer's language. Accepting it again gives the same
 * candidate (`created: false`). Any member may accept; admins approve.
 */
export async function acceptReplySuggestion(deps: Deps, userId: string, replyId: string) {
  const input = { userId, replyId, id: deps.ids.uuid(), at: nowIso(deps) };
  let result = await acceptReply(deps.db, input);
  // A concurrent accept committed the candidate after this statement's snapshot: read it now.
  if (result.found && !result.row) result = await acceptReply(deps.db, input);
  if (!result.found || !result.row) throw notFound("Reply suggestion not found");
  return { faq: faqOut(fromJsonb(result.row)), created: result.created };
}

/**
 * An entry in another language for a question no entry matched as asked (ADR 0113): the
 * question is translated by the MT tier into each language of the organisation's active
 * entries (at most MAX_LANGUAGES) and matched among that language's entries (a question already
 * in that language comes back as it was and fails again: one MT call spent, nothing wrong). Any MT failure is logged and means
 * no match: the assistant then asks the model, as without an FAQ.
 */
export async function crossLanguageFaq(
  deps: Deps,
  userId: string,
  message: string,
  languages: string[],
): Promise<OrgFaqMatch | null> {
  const targets = languages.filter((l) => l !== "und").slice(0, MAX_LANGUAGES);
  if (targets.length === 0) return null;
  const [provider] = await mtProviders(deps);
  if (!provider) return null;
  const target = {
    provider: provider.name,
    baseUrl: provider.base_url,
    apiKey: await providerKey(deps, provider),
    timeoutMs: provider.timeout_ms,
  };
  // Each MT call is on record (ai_calls, task faq_match), free to the user.
  const log = aiCallLog(deps, { userId });
  try {
    for (const language of targets) {
      let translated: Awaited<ReturnType<typeof translateWithMt>>;
      try {
        translated = await log.call(
          { task: "faq_match", provider: provider.name, model: "mt" },
          () => translateWithMt(target, { text: message, targetLang: language }, deps.fetch),
        );
      } catch (error) {
        deps.logger.warn("faq question translation failed", {
          provider: provider.name,
          error: String(error),
        });
        return null;
      }
      const match = await orgFaqMatch(deps.db, {
        userId,
        text: translated.text,
        threshold: ORG_FAQ_THRESHOLD,
        language,
      });
      if (match) return fromJsonb(match);
    }
    return null;
  } finally {
    log.flush();
  }
}

/** An answer given from an entry: counted on it. */
export async function countFaqHit(deps: Deps, id: string) {
  await countOrgFaqHit(deps.db, { id, at: nowIso(deps) });
}
