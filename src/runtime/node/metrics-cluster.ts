import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

/** One registry as getMetricsAsJSON gives it, the shape aggregate() takes. */
type RegistryJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

/**
 * A scrape reaches one worker (the port is shared), but the answer must cover them all. The
 * worker asks the primary over the cluster's IPC channel; the primary collects every ready
 * worker's registry (as JSON), aggregates them with prom-client's AggregatorRegistry (counters
 * and histograms summed, gauges as each declares) and sends the text back to the worker that
 * asked.
 *
 * prom-client's own clusterMetrics() asks every forked worker and fails the whole scrape when one
 * does not answer in 5 s: a worker still starting (worker 2 forks once worker 1 listens, and a
 * restarted one loads the bundle and opens its pool) would fail every scrape meanwhile. Here a
 * worker is asked once it has said it is ready, and one that stops answering is left out.
 */
const READY = "trade-assistant:metrics-ready";
const SCRAPE = "trade-assistant:metrics-scrape";
const SCRAPED = "trade-assistant:metrics-scraped";
const COLLECT = "trade-assistant:metrics-collect";
const COLLECTED = "trade-assistant:metrics-collected";
/** A worker's own registry, read in milliseconds; longer means it is stuck. */
const WORKER_TIMEOUT_MS = 3_000;
/** Below Prometheus's default scrape timeout (10 s), so a late primary still gets an answer. */
const PRIMARY_TIMEOUT_MS = 6_000;

interface Message {
  type: string;
  id?: number;
  text?: string;
  error?: string;
  metrics?: RegistryJson;
}

const messageOf = (message: unknown): Message | undefined =>
  typeof message === "object" &&
  message !== null &&
  typeof (message as { type?: unknown }).type === "string"
    ? (message as Message)
    : undefined;

/** Sends when the channel is still open (the worker or primary may be exiting): true if sent. */
function sendTo(target: Worker | NodeJS.Process, message: Message): boolean {
  if ("isConnected" in target) {
    if (!target.isConnected()) return false;
    target.send(message);
    return true;
  }
  if (!target.connected || !target.send) return false;
  target.send(message);
  return true;
}

/**
 * The primary's side (runtime/node/cluster.ts calls it before the first fork): answers each
 * worker's scrape with every ready worker's metrics.
 */
export function serveClusterMetrics(): void {
  const ready = new Set<Worker>();
  const collecting = new Map<number, (metrics: RegistryJson | null) => void>();
  let next = 0;

  const collect = (worker: Worker) =>
    new Promise<RegistryJson | null>((resolve) => {
      const id = next++;
      const timer = setTimeout(() => finish(null), WORKER_TIMEOUT_MS);
      const finish = (metrics: RegistryJson | null) => {
        clearTimeout(timer);
        collecting.delete(id);
        resolve(metrics);
      };
      collecting.set(id, finish);
      if (!sendTo(worker, { type: COLLECT, id })) finish(null);
    });

  const aggregate = async () => {
    const workers = [...ready];
    const answers = await Promise.all(workers.map(collect));
    const text = await AggregatorRegistry.aggregate(
      answers.filter((answer): answer is RegistryJson => answer !== null),
    ).metrics();
    const silent = answers.filter((answer) => answer === null).length;
    return silent > 0 ? `# ${silent} of ${workers.length} workers did not answer\n${text}` : text;
  };

  cluster.on("exit", (worker) => ready.delete(worker));
  cluster.on("message", (worker, raw: unknown) => {
    const message = messageOf(raw);
    if (message?.type === READY) ready.add(worker);
    else if (message?.type === COLLECTED && message.id !== undefined) {
      collecting.get(message.id)?.(message.metrics ?? null);
    } else if (message?.type === SCRAPE) {
      aggregate().then(
        (text) => sendTo(worker, { type: SCRAPED, id: message.id, text }),
        (error: unknown) => sendTo(worker, { type: SCRAPED, id: message.id, error: String(error) }),
      );
    }
  });
}

/**
 * The text a `/metrics` scrape answers: `local`'s alone in a single process; in a cluster
 * worker, the primary's aggregate of every worker. If the primary does not answer (it was not
 * started with serveClusterMetrics, or it hangs), this worker's own metrics, marked.
 */
export function clusterMetricsText(local: Registry): () => Promise<string> {
  if (!cluster.isWorker || !process.send) return () => local.metrics();
  const waiting = new Map<number, (answer: Message | null) => void>();
  let next = 0;
  process.on("message", (raw: unknown) => {
    const message = messageOf(raw);
    if (message?.type === COLLECT) {
      local.getMetricsAsJSON().then(
        (metrics) => sendTo(process, { type: COLLECTED, id: message.id, metrics }),
        () => sendTo(process, { type: COLLECTED, id: message.id }),
      );
    } else if (message?.type === SCRAPED && message.id !== undefined) {
      waiting.get(message.id)?.(message);
    }
  });
  sendTo(process, { type: READY });
  return async () => {
    const id = next++;
    const answer = await new Promise<Message | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), PRIMARY_TIMEOUT_MS);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      if (!sendTo(process, { type: SCRAPE, id })) resolve(null);
    });
    waiting.delete(id);
    if (answer?.text !== undefined) return answer.text;
    const reason = answer?.error ?? "the primary did not answer";
    return `# Only worker ${process.pid}'s metrics: ${reason.replace(/\s+/g, " ")}\n${await local.metrics()}`;
  };
}
