import type { AppRouter } from "../http/router";
import { createJobRoutes } from "../modules/jobs/routes";

/** Route group `jobs`: background steps delivered by QStash. */
export const jobsRoutes = (): AppRouter[] => [createJobRoutes()];
