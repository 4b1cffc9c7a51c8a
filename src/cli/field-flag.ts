/** A flag derived from one field of a zod schema (its own module: schema-flags and flag-docs both need it). */

/** The kind of value a flag takes, derived from a zod schema. */
export type FlagKind = 'string' | 'number' | 'boolean' | 'list' | 'json';

export interface FieldFlag {
  /** Body or query field name as the API spells it. */
  field: string;
  /** `--kebab-case` flag name. */
  flag: string;
  kind: FlagKind;
  /** For `list` flags: the type of each item (numbers are sent as numbers). */
  item?: 'string' | 'number';
  required: boolean;
  description: string;
  choices?: string[];
  /** Length bounds of a string field (help says them: `--secret` takes 16 to 256 characters). */
  minLength?: number;
  maxLength?: number;
}
