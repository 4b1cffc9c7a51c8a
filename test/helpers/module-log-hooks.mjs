import { appendFileSync } from 'node:fs';

/** Module resolution hook (node:module register): log each resolved URL. */
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (process.env.AVATAR_TEST_MODULE_LOG)
    appendFileSync(process.env.AVATAR_TEST_MODULE_LOG, `${r.url}\n`);
  return r;
}
