import { a } from './ring-a.js';

export const b = (): number => 1;
export const twice = (): number => a() * 2;
