import { sql } from "drizzle-orm";
import { queryRows } from "../../src/db/client";
import type { AiProviderKind } from "../../src/db/schema";
import { sealedKey } from "../../src/modules/admin/writes";
import type { Deps } from "../../src/ports";
import { startFakeOpenAi } from "../fakes/openai";
import { startFakeSearch } from "../fakes/search";

/**
 * Registers an AI provider straight in the database (key encrypted as the admin API does), for
 * suites that test a feature rather than provider administration.
 */
export async function addAiProvider(
  deps: Deps,
  input: {
    name: string;
    kind: AiProviderKind;
    baseUrl: string;
    apiKey?: string;
    models?: string[];
    enabled?: boolean;
    timeoutMs?: number;
  },
): Promise<string> {
  const key = await sealedKey(deps.keys.encryption, input.apiKey);
  const [row] = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into ai_providers (name, kind, base_url, api_key_ciphertext, api_key_hint, models,
          enabled, timeout_ms)
        values (${input.name}, ${input.kind}, ${input.baseUrl}, ${key.ciphertext},
          ${key.hint}, ${JSON.stringify(input.models ?? [])}::jsonb,
          ${input.enabled ?? true}, ${input.timeoutMs ?? 5000})
        returning id`,
  );
  return row!.id;
}

/** Sets one task's routing list in system config `ai.routing` (entries `name` or `name:model`). */
export async function setAiRouting(deps: Deps, task: string, entries: string[]): Promise<void> {
  await queryRows(
    deps.db,
    sql`update system_config set value = jsonb_set(value, ${`{${task}}`}::text[], ${JSON.stringify(entries)}::jsonb)
        where key = 'ai.routing'`,
  );
}

/** Removes every provider (each test file shares one database across its tests). */
export async function clearAiProviders(deps: Deps): Promise<void> {
  await queryRows(deps.db, sql`delete from ai_providers`);
}

/** Registers a web-search provider straight in the database, its key encrypted as the admin API does. */
export async function addSearchProvider(
  deps: Deps,
  input: {
    name: string;
    kind: "brave" | "searxng";
    baseUrl: string;
    apiKey: string | null;
    /** The stored hint; the key's last 4 characters by default. */
    hint?: string;
    enabled?: boolean;
    timeoutMs?: number;
  },
): Promise<void> {
  const key = await sealedKey(deps.keys.encryption, input.apiKey);
  await queryRows(
    deps.db,
    sql`insert into search_providers (name, kind, base_url, api_key_ciphertext, api_key_hint,
          enabled, timeout_ms)
        values (${input.name}, ${input.kind}, ${input.baseUrl}, ${key.ciphertext},
          ${input.hint ?? key.hint}, ${input.enabled ?? true},
          ${input.timeoutMs ?? 5000})`,
  );
}

/** A provider row's stored key: its ciphertext and hint. */
export async function storedProviderKey(
  deps: Deps,
  table: "ai_providers" | "search_providers",
  id: string,
) {
  const [row] = await queryRows<{ ciphertext: string | null; hint: string | null }>(
    deps.db,
    sql`select api_key_ciphertext as ciphertext, api_key_hint as hint
        from ${sql.identifier(table)} where id = ${id}`,
  );
  return row!;
}

/**
 * A fake LLM and a fake search engine as the app's only AI and search providers, routed for
 * `tasks`: what the agent and discovery need. The caller closes both.
 */
export async function useFakeAgentProviders(
  deps: Deps,
  options: { llmKey: string; search: { name: string; kind: "brave" | "searxng" }; tasks: string[] },
) {
  const [llm, search] = await Promise.all([startFakeOpenAi(options.llmKey), startFakeSearch()]);
  await addSearchProvider(deps, {
    ...options.search,
    baseUrl: search.url,
    apiKey: search.apiKey,
    hint: "fake",
    timeoutMs: 15_000,
  });
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "llm",
    kind: "llm",
    baseUrl: llm.url,
    apiKey: llm.apiKey,
    models: ["m1"],
  });
  for (const task of options.tasks) await setAiRouting(deps, task, ["llm"]);
  return { llm, search };
}
