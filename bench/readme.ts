import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "./proc";
import { type SummaryRow, summaryMarkdown } from "./summary";

/**
 * `npm run bench:readme`: rewrites the README's benchmark table from the last run
 * (bench/.out/latest.json), between its markers, so the README shows what the bench printed.
 */
const BEGIN =
  "<!-- bench:begin (npm run bench:readme writes this table from bench/.out/latest.json) -->";
const END = "<!-- bench:end -->";

interface LatestRun {
  summary: SummaryRow[];
  startedAt: string;
  machine: { cpus: number; model?: string; node: string; postgres: string; loadavgStart: number[] };
}

const latest = JSON.parse(
  await readFile(join(ROOT, "bench/.out/latest.json"), "utf8"),
) as LatestRun;
const { machine } = latest;
const block = [
  BEGIN,
  `Run of ${latest.startedAt.slice(0, 16).replace("T", " ")} UTC: ${machine.cpus} cores (${machine.model ?? "?"}), Node ${machine.node}, PostgreSQL ${machine.postgres}, load average ${machine.loadavgStart.map((x) => x.toFixed(1)).join(" ")} at the start; medians of 3.`,
  "",
  summaryMarkdown(latest.summary),
  END,
].join("\n");

const readmePath = join(ROOT, "README.md");
const readme = await readFile(readmePath, "utf8");
const start = readme.indexOf(BEGIN.slice(0, 20));
const end = readme.indexOf(END);
if (start < 0 || end < start)
  throw new Error(`README.md has no ${BEGIN.slice(0, 20)} ... ${END} block`);
await writeFile(readmePath, `${readme.slice(0, start)}${block}${readme.slice(end + END.length)}`);
console.log(`README.md: benchmark table from the run of ${latest.startedAt}`);
