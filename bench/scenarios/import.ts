import {
  buildImportXlsx,
  IMPORT_ROWS,
  IMPORT_RUNS,
  type ImportResult,
  measureImport,
} from "../customers";
import { fmt } from "../format";
import type { BenchContext } from "../setup";

export interface ImportScenarioResult {
  imports: ImportResult;
  /** Size of one generated .xlsx (they are all the same size). */
  fileBytes: number;
}

/**
 * Import: a fresh 5,000-row .xlsx per run, each for its own bench user (every row inserts);
 * server memory from /proc/<pid>/status of the app, VmHWM reset just before each run.
 */
export async function measureImports(ctx: BenchContext): Promise<ImportScenarioResult> {
  const since = performance.now();
  const importFiles = await Promise.all(
    Array.from({ length: IMPORT_RUNS }, async (_, i) => ({
      token: ctx.users[1 + i]!.token,
      tag: `${process.pid}-${i + 1}`,
      bytes: await buildImportXlsx(`${process.pid}-${i + 1}`),
    })),
  );
  const fileBytes = importFiles[0]!.bytes.byteLength;
  ctx.log(
    `\nimport: ${IMPORT_RUNS} x ${IMPORT_ROWS}-row .xlsx (${fmt(fileBytes / 1024)} KB each) built with exceljs in ${fmt(performance.now() - since)} ms`,
  );
  const appPid = ctx.app.child.proc.pid;
  if (appPid === undefined) throw new Error("app has no pid");
  const imports = await measureImport({
    url: `${ctx.app.url}/api/v1/customers/import`,
    pid: appPid,
    files: importFiles,
    log: ctx.log,
  });
  return { imports, fileBytes };
}
