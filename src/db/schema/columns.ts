import { sql } from "drizzle-orm";
import { timestamp, uuid } from "drizzle-orm/pg-core";

/** Shared column helpers so every table spells ids and times the same way. */
export const id = () => uuid("id").primaryKey().default(sql`gen_random_uuid()`);
export const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const tstz = <Name extends string>(name: Name) =>
  timestamp(name, { withTimezone: true, mode: "date" });
