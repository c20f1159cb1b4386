import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import { DOCUMENT_WORKER, ensureStartBundle } from "../../../scripts/start-bundle.mjs";
import type {
  DocumentFormat,
  DocumentRenderer,
  RenderedDocument,
} from "../../modules/quotations/documents";
import type { QuotationDocument } from "../../modules/quotations/view";
import type { DocumentJob } from "./document-worker";
import { PROJECT_ROOT } from "./project-root";

export interface DocumentPoolOptions {
  /** DOCUMENT_TIME_BUDGET_MS: from the request for a document to its bytes, queue included. */
  timeBudgetMs: number;
  /** Threads making documents at once; default: one core left to the request thread, 1 to 4. */
  threads?: number;
  /** Documents waiting for a thread; one more is refused ("busy"). Default 16 per thread. */
  maxQueue?: number;
}

/** Heap of one document thread: a 200-item quotation needs a fraction; a runaway one stops here. */
const THREAD_HEAP_MB = 512;

const defaultThreads = () => Math.max(1, Math.min(4, availableParallelism() - 1));

/** piscina rejects with an AbortError when the task's signal fires (queued or running). */
const isAbort = (error: unknown) => error instanceof Error && error.name === "AbortError";

const isOutOfMemory = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";

/**
 * Quotation PDFs and spreadsheets on worker threads (piscina), so a document never holds the
 * request thread: /health and every other request go on while documents are made (ADR 0083).
 *
 * - Each document has DOCUMENT_TIME_BUDGET_MS from the moment it is asked for. Past it, the
 *   request is answered 503 and, if a thread is already making it, piscina terminates that
 *   thread (JavaScript stuck in a loop cannot be interrupted any other way) and starts another.
 * - The queue is bounded: one document more than `maxQueue` waiting is refused at once ("busy")
 *   instead of holding its quotation in memory behind the others.
 * - The thread script is its own esbuild bundle beside the server's (scripts/start-bundle.mjs;
 *   `npm start` builds both), built here first if missing or stale, so the same file runs under
 *   `npm start`, `npm run dev` and vitest. The pool starts on the first document, not at start-up.
 */
export function createDocumentPool(options: DocumentPoolOptions): DocumentRenderer {
  const threads = options.threads ?? defaultThreads();
  const maxQueue = options.maxQueue ?? threads * 16;
  let pool: Promise<Piscina<DocumentJob, RenderedDocument>> | undefined;
  let closed = false;
  // Read by /metrics; 0 until the pool has started.
  let started: Piscina<DocumentJob, RenderedDocument> | undefined;

  const start = async () => {
    const { path } = await ensureStartBundle({ ...DOCUMENT_WORKER, root: PROJECT_ROOT });
    return new Piscina<DocumentJob, RenderedDocument>({
      filename: pathToFileURL(path).href,
      name: "default",
      minThreads: 1,
      maxThreads: threads,
      maxQueue,
      // A thread idle for a minute is ended (with its parsed font); one always stays warm.
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
  };

  return {
    async render(format: DocumentFormat, doc: QuotationDocument): Promise<RenderedDocument> {
      if (closed) return { reason: "busy" };
      const signal = AbortSignal.timeout(options.timeBudgetMs);
      if (!pool) {
        pool = start();
        // A failed start (the bundle could not be built) is not kept: the next document retries.
        pool.catch(() => {
          pool = undefined;
        });
      }
      const piscina = await pool;
      started = piscina;
      // Checked here rather than by piscina's "Task queue is at limit" message.
      if (piscina.queueSize >= maxQueue) return { reason: "busy" };
      try {
        return await piscina.run({ format, doc }, { signal });
      } catch (error) {
        if (isAbort(error)) {
          return closed
            ? { reason: "busy" }
            : { reason: "over-budget", budgetMs: options.timeBudgetMs };
        }
        // The thread died under the document (out of its heap): piscina replaces it. Any other
        // error is a fault in the renderer and goes to the app's generic 500, as in-isolate.
        if (isOutOfMemory(error)) return { reason: "failed", error: "ERR_WORKER_OUT_OF_MEMORY" };
        throw error;
      }
    },

    queueDepth: () => started?.queueSize ?? 0,

    async close() {
      closed = true;
      started = undefined;
      const running = pool;
      pool = undefined;
      await (await running?.catch(() => undefined))?.destroy();
    },
  };
}
