export const boxes = new Map<string, string>();
