// Breaks browser-no-node-builtin and browser-only-contract: the browser client runs in a page.
import { readFileSync } from 'node:fs';
import { boxes } from '../emulator/box-registry.js';

export const page = (): string => readFileSync('index.html', 'utf8') + String(boxes.size);
