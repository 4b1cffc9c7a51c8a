import type { z } from 'zod';

/**
 * The message for a zod issue as a user should read it: a field that is absent says
 * `required` (zod says "Invalid input" for a missing union, which names nothing to do),
 * anything else keeps zod's reason.
 */
export function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  let at: unknown = input;
  for (const key of issue.path) {
    if (at === null || typeof at !== 'object') {
      at = undefined;
      break;
    }
    at = (at as Record<PropertyKey, unknown>)[key as PropertyKey];
  }
  if (
    at === undefined &&
    issue.path.length > 0 &&
    (issue.code === 'invalid_type' || issue.code === 'invalid_union')
  )
    return 'required';
  return issue.message;
}
