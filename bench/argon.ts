import { verify } from "@node-rs/argon2";
import { median } from "./load";

export interface ArgonTiming {
  /** Median wall time of one verify (what a login costs), ms. */
  verifyMs: number;
  samples: number[];
}

/**
 * Times @node-rs/argon2 `verify` of a hash the app stored (so the exact parameters the app
 * uses), one call at a time, in this process.
 */
export async function timeArgonVerify(
  phcHash: string,
  password: string,
  { warmup = 3, samples = 15 } = {},
): Promise<ArgonTiming> {
  for (let i = 0; i < warmup; i++) {
    if (!(await verify(phcHash, password))) throw new Error("argon2 verify failed on warm-up");
  }
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await verify(phcHash, password);
    times.push(performance.now() - started);
  }
  return { verifyMs: median(times), samples: times };
}
