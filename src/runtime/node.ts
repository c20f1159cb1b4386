import { ConfigError, parseConfig } from "../config";
import { DataDirLockedError } from "./node/data-dir-lock";
import { startNodeServer } from "./node/server";

/** `npm start`: the Node server, on the embedded defaults unless configured. */
async function main() {
  const config = parseConfig(process.env);
  const running = await startNodeServer(config);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    running.stop(signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(JSON.stringify({ level: "error", msg: "start-up failed", error: String(error) }));
  }
  process.exit(1);
});
