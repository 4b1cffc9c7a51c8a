/**
 * Look-ups by a name a user chose (a built-in server key, a model id, a word of a prompt):
 * `record[key]` only when `key` is the record's own property. A plain `record[key]` with
 * `constructor`, `__proto__`, `toString` or `hasOwnProperty` finds Object.prototype's
 * members instead of nothing (issue 32 item 4: a 500).
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
