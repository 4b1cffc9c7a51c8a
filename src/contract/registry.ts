import { z } from 'zod';

/** Named schemas; they become `components.schemas` entries of the OpenAPI document. */
export const schemaRegistry = z.registry<{ id: string; description?: string }>();

/** Register a schema under a component name and return it unchanged. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  schemaRegistry.add(schema, description ? { id, description } : { id });
  return schema;
}
