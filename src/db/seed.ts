import { DEFAULT_SYSTEM_CONFIG } from "../modules/system-config/defaults";
import type { Db } from "./client";
import { systemConfig } from "./schema";

/** Inserts default rows that are missing; never touches a value an admin has changed. */
export async function seedDefaults(db: Db): Promise<void> {
  await db
    .insert(systemConfig)
    .values(Object.entries(DEFAULT_SYSTEM_CONFIG).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing({ target: systemConfig.key });
}
