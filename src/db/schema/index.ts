export * from "./credits";
export * from "./system-config";
export * from "./usage";
export * from "./users";
