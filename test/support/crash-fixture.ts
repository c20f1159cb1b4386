import { sql } from "drizzle-orm";
import { ConfigError, parseConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { buildDeps } from "../../src/deps";
import { createNodeRuntime } from "../../src/runtime/node/adapters";
import { DataDirLockedError } from "../../src/runtime/node/data-dir-lock";
import { addAiProvider, clearAiProviders, setAiRouting } from "./ai";

/**
 * `tsx test/support/crash-fixture.ts BASE_URL API_KEY COST [OPERATION]`, run (runToExit) on a
 * server's DATA_DIR while that server is stopped (the embedded database has one owner at a
 * time), or on its DATABASE_URL. Makes the fake OpenAI at BASE_URL the only AI provider, routed
 * for OPERATION (`chat` by default, or `translate`), with a long timeout (a hanging answer
 * keeps its charge held until the test kills the server), and sets what the operation costs.
 * Opens and closes the database as `npm run admin:grant` does.
 */
async function main() {
  const [baseUrl, apiKey, cost, operation = "chat"] = process.argv.slice(2);
  if (
    !baseUrl ||
    !apiKey ||
    !cost ||
    !/^[1-9]\d*$/.test(cost) ||
    !["chat", "translate"].includes(operation)
  ) {
    console.error(
      "usage: tsx test/support/crash-fixture.ts BASE_URL API_KEY COST [chat|translate]",
    );
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
    await setAiRouting(deps, operation, ["crash-llm"]);
    await queryRows(
      deps.db,
      sql`update system_config set value = jsonb_set(value, ${`{${operation}}`}::text[], ${cost}::jsonb)
          where key = 'credits.costs'`,
    );
    // Both settings are rows the migrations seed: an update that found none would pass silently.
    const [row] = await queryRows<{ routing: unknown; cost: number | null }>(
      deps.db,
      sql`select (select value -> ${operation} from system_config where key = 'ai.routing') as routing,
            (select (value ->> ${operation})::int from system_config where key = 'credits.costs') as cost`,
    );
    if (JSON.stringify(row?.routing) !== JSON.stringify(["crash-llm"]) || row?.cost !== +cost) {
      throw new Error(`settings not stored: ${JSON.stringify(row)}`);
    }
    console.log(`${operation} routed to ${baseUrl}, costing ${cost}`);
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
