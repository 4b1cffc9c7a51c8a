import { randomBytes, randomUUID } from 'node:crypto';

/** Injected randomness (ARCHITECTURE property 3): ids and secrets come from here. */
export interface IdSource {
  uuid(): string;
  /** `bytes` random bytes as lowercase hex (2 chars per byte). */
  hex(bytes: number): string;
}

export const cryptoIds: IdSource = {
  uuid: () => randomUUID(),
  hex: (bytes) => randomBytes(bytes).toString('hex'),
};
