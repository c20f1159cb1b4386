import { sql } from "drizzle-orm";
import { ConfigError, parseConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { buildDeps } from "../../src/deps";
import { createNodeRuntime } from "../../src/runtime/node/adapters";
import { DataDirLockedError } from "../../src/runtime/node/data-dir-lock";
import { addAiProvider, clearAiProviders, setAiRouting } from "./ai";

/**
 * `tsx test/support/crash-fixture.ts BASE_URL API_KEY CHAT_COST`, run (runToExit) on a server's
 * DATA_DIR while that server is stopped: the embedded database has one owner at a time. Makes
 * the fake OpenAI at BASE_URL the only AI provider, routed for `chat`, with a long timeout (a
 * hanging answer keeps its charge held until the test kills the server), and sets what a chat
 * turn costs. Opens and closes the data directory as `npm run admin:grant` does.
 */
async function main() {
  const [baseUrl, apiKey, cost] = process.argv.slice(2);
  if (!baseUrl || !apiKey || !cost || !/^[1-9]\d*$/.test(cost)) {
    console.error("usage: tsx test/support/crash-fixture.ts BASE_URL API_KEY CHAT_COST");
    process.exit(2);
  }
  const config = parseConfig(process.env);
  const runtime = await createNodeRuntime(config);
  try {
    const deps = await buildDeps(config, runtime);
    await clearAiProviders(deps);
    await addAiProvider(deps, {
      name: "crash-llm",
      kind: "llm",
      baseUrl,
      apiKey,
      models: ["crash-model"],
      timeoutMs: 120_000,
    });
    await setAiRouting(deps, "chat", ["crash-llm"]);
    await queryRows(
      deps.db,
      sql`update system_config set value = jsonb_set(value, '{chat}', ${cost}::jsonb)
          where key = 'credits.costs'`,
    );
    // Both settings are rows the migrations seed: an update that found none would pass silently.
    const [row] = await queryRows<{ routing: unknown; cost: number | null }>(
      deps.db,
      sql`select (select value -> 'chat' from system_config where key = 'ai.routing') as routing,
            (select (value ->> 'chat')::int from system_config where key = 'credits.costs') as cost`,
    );
    if (JSON.stringify(row?.routing) !== JSON.stringify(["crash-llm"]) || row?.cost !== +cost) {
      throw new Error(`settings not stored: ${JSON.stringify(row)}`);
    }
    console.log(`chat routed to ${baseUrl}, costing ${cost}`);
  } finally {
    await Promise.allSettled([runtime.limiter.close?.(), runtime.database.close()]);
  }
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError
      ? error.message
      : `crash fixture failed: ${String(error)}`,
  );
  process.exit(1);
});
