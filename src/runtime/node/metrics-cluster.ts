import cluster from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

/**
 * A scrape reaches one worker (the port is shared), but the answer must cover them all. The
 * worker asks the primary over the cluster's IPC channel; the primary asks every worker for its
 * registry (prom-client's AggregatorRegistry: counters and histograms summed, gauges as each
 * declares) and sends the aggregate back to the worker that asked.
 */
const SCRAPE = "trade-assistant:metrics-scrape";
const SCRAPED = "trade-assistant:metrics-scraped";
/** Below Prometheus's default scrape timeout (10 s), so a late primary still gets an answer. */
const PRIMARY_TIMEOUT_MS = 6_000;

interface ScrapeMessage {
  type: typeof SCRAPE;
  id: number;
}
interface ScrapedMessage {
  type: typeof SCRAPED;
  id: number;
  text?: string;
  error?: string;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T["type"]): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;

/**
 * The primary's side (runtime/node/cluster.ts calls it before the first fork): answers each
 * worker's scrape with every worker's metrics. Every worker must run clusterMetricsText, whose
 * registry answers prom-client's own request.
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: unknown) => {
    if (!isMessage<ScrapeMessage>(message, SCRAPE)) return;
    const reply = (answer: Omit<ScrapedMessage, "type" | "id">) => {
      // The worker may have exited meanwhile: its channel is closed and nobody waits.
      if (worker.isConnected()) worker.send({ type: SCRAPED, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: String(error) }),
    );
  });
}

/**
 * The text a `/metrics` scrape answers: `local`'s alone in a single process; in a cluster
 * worker, the primary's aggregate of every worker. If the primary does not answer (it was not
 * started with serveClusterMetrics, or a worker hangs), this worker's own metrics, marked.
 */
export function clusterMetricsText(local: Registry): () => Promise<string> {
  if (!cluster.isWorker || !process.send) return () => local.metrics();
  // Answers the primary's per-worker requests with this registry.
  AggregatorRegistry.setRegistries([local]);
  new AggregatorRegistry();
  const waiting = new Map<number, (answer: ScrapedMessage | null) => void>();
  let next = 0;
  process.on("message", (message: unknown) => {
    if (isMessage<ScrapedMessage>(message, SCRAPED)) waiting.get(message.id)?.(message);
  });
  return async () => {
    const id = next++;
    const answer = await new Promise<ScrapedMessage | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), PRIMARY_TIMEOUT_MS);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      process.send?.({ type: SCRAPE, id } satisfies ScrapeMessage);
    });
    waiting.delete(id);
    if (answer?.text !== undefined) return answer.text;
    const reason = answer?.error ?? "the primary did not answer";
    return `# Only worker ${process.pid}'s metrics: ${reason.replace(/\s+/g, " ")}\n${await local.metrics()}`;
  };
}
