/** One numbered migration (its own module so the migrations and their index import no cycle). */
export interface Migration {
  version: number;
  name: string;
  up: string;
}
