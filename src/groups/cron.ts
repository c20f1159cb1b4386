import type { AppRouter } from "../http/router";

/** Route group `cron`: scheduled tasks only (no routes); see src/jobs/schedules.ts. */
export const cronRoutes = (): AppRouter[] => [];
