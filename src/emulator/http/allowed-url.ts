/** https only; plain http too with --allow-insecure-urls (ARCHITECTURE property 1). */
export function isAllowedUrl(s: string, allowInsecure: boolean): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || (allowInsecure && u.protocol === 'http:');
  } catch {
    return false;
  }
}
