// Tables of issue #24, filled by its work.
export {};
