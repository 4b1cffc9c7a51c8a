// Breaks typescript/no-floating-promises: the promise's rejection is lost.
async function save(): Promise<void> {
  throw new Error('disk full');
}

export function onClick(): void {
  save();
}
