/**
 * A response body produced batch by batch. Runs on Workers.
 *
 * The producer loop starts when the stream is made (inside the request handler) and keeps that
 * async context for its whole life: on Workers the database is reached through the request's
 * context, which a `pull` callback driven by the runtime after the handler returned would not
 * carry. The consumer only paces the producer (one chunk queued at most), so memory holds one
 * batch whatever the row count.
 */
export function streamChunks(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let wake: (() => void) | undefined;
  let cancelled = false;
  const roomFreed = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  async function produce(controller: ReadableStreamDefaultController<Uint8Array>) {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (cancelled) return;
      controller.enqueue(next.value);
      while (!cancelled && (controller.desiredSize ?? 1) <= 0) await roomFreed();
      if (cancelled) return;
    }
    if (!cancelled) controller.close();
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        produce(controller).catch((error: unknown) => {
          if (!cancelled) controller.error(error);
        });
      },
      pull() {
        wake?.();
        wake = undefined;
      },
      async cancel() {
        cancelled = true;
        wake?.();
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
