/** Throws a message naming the flag when `value` is not an http(s) URL (the upstream flags). */
export function checkHttpUrl(flag: string, value: string): void {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`${flag} must be an http(s) URL, got "${value}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`${flag} must be an http(s) URL, got "${value}"`);
}

/** A flag parser: the value when it is an http(s) URL, else the message naming the flag. */
export const httpUrlFlag =
  (flag: string) =>
  (value: string): string => {
    checkHttpUrl(flag, value);
    return value;
  };
