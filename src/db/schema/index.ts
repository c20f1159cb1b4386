export * from "./credits";
export * from "./growth";
export * from "./notifications";
export * from "./payments";
export * from "./system-config";
export * from "./usage";
export * from "./users";
export * from "./workspace";
