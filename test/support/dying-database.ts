import type { Database } from "../../src/db/client";

/**
 * A database handle that fails every statement once the instance using it is "killed": what
 * kill -9 leaves behind, in-process (nothing the instance does afterwards reaches the database,
 * not its refunds, not its heartbeat, not its own error handling).
 */
export function dyingDatabase(database: Database) {
  let dead = false;
  const db = new Proxy(database.db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "execute") {
        return (...args: unknown[]) =>
          dead
            ? Promise.reject(new Error("the instance was killed"))
            : (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { database: { ...database, db, close: async () => {} }, kill: () => (dead = true) };
}
