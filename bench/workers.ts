// Standalone run of the Worker sizes and cold starts (issue #13 item 5): `tsx bench/workers.ts`.

import { measureWorkers } from "./scenarios/workers";
import { renderWorkers } from "./workers-report";

const result = await measureWorkers({ log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${renderWorkers(result)}\n`);
