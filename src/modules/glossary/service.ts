import { conflict, forbidden, notFound, validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import { pgErrorCode } from "../../lib/db-errors";
import type { Deps } from "../../ports";
import * as queries from "./queries";
import type { GlossaryTermInput, GlossaryTermPatchInput } from "./schemas";

/** The refusal of a member's change to the glossary (403), as the catalogue's. */
export const glossaryRefused = () =>
  forbidden("Only a manager, an admin or the owner can change the glossary");

const duplicateTerm = () =>
  conflict("The glossary already has this source term for this language pair");

function toTerm(row: queries.TermRow) {
  return {
    id: row.id,
    source_lang: row.source_lang,
    target_lang: row.target_lang,
    source_term: row.source_term,
    target_term: row.target_term,
    note: row.note,
    created_by: row.user_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The pair must be two languages: said before the write, and by the table's check after it. */
const sameLanguages = () =>
  validationError([
    {
      loc: ["body", "target_lang"],
      msg: "source_lang and target_lang must differ",
      type: "custom",
    },
  ]);

/**
 * A unique violation (the same source term in the pair) as a 409, the check of two languages
 * (a concurrent change of the other language passed the service's own check) as a 422; anything
 * else rethrown.
 */
async function uniqueAs409<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = pgErrorCode(error);
    if (code === "23505") throw duplicateTerm();
    if (code === "23514") throw sameLanguages();
    throw error;
  }
}

export async function listGlossary(
  deps: Deps,
  userId: string,
  query: {
    page: number;
    size: number;
    source_lang?: string | undefined;
    target_lang?: string | undefined;
    q?: string | undefined;
  },
) {
  const { rows, total } = await queries.listTerms(deps.db, {
    userId,
    sourceLang: query.source_lang,
    targetLang: query.target_lang,
    q: query.q || undefined,
    page: query.page,
    size: query.size,
  });
  return { items: rows.map(toTerm), total, page: query.page, size: query.size };
}

export async function createTerm(deps: Deps, userId: string, input: GlossaryTermInput) {
  const row = await uniqueAs409(() =>
    queries.insertTerm(deps.db, { userId, values: { ...input, note: input.note ?? null } }),
  );
  if (!row) throw glossaryRefused();
  return toTerm(row);
}

/** A change that touched nothing: 403 for a term the member sees, else 404. */
async function refusal(deps: Deps, userId: string, id: string) {
  if (await queries.getTerm(deps.db, { userId, id })) return glossaryRefused();
  return notFound("No such glossary term");
}

export async function updateTerm(
  deps: Deps,
  userId: string,
  id: string,
  patch: GlossaryTermPatchInput,
) {
  const current = await queries.getTerm(deps.db, { userId, id });
  if (!current) throw notFound("No such glossary term");
  // The pair after the change must still be two languages.
  const source = patch.source_lang ?? current.source_lang;
  const target = patch.target_lang ?? current.target_lang;
  if (source === target) throw sameLanguages();
  const row = await uniqueAs409(() => queries.updateTerm(deps.db, { userId, id, patch }));
  if (!row) throw await refusal(deps, userId, id);
  return toTerm(row);
}

export async function deleteTerm(deps: Deps, userId: string, id: string) {
  if (!(await queries.deleteTerm(deps.db, { userId, id }))) throw await refusal(deps, userId, id);
}
