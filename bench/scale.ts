// Standalone run of the scale table (issue #13 item 3): `tsx bench/scale.ts`.
import { renderScale } from "./scale-report";
import { measureScale } from "./scenarios/scale";

const adminUrl = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const result = await measureScale({
  adminUrl,
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${renderScale(result)}\n`);
