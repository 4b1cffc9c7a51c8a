// Breaks no-circular: ring-a and ring-b import each other.
import { b } from './ring-b.js';

export const a = (): number => b() + 1;
