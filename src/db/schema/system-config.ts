import { jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns";
import { users } from "./users";

export const systemConfig = pgTable("system_config", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: updatedAt(),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
});
