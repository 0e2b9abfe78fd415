import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** A listing's answer without its goods: the page's ids in order and the total of the whole listing. */
export interface ListingIds {
  ids: number[];
  total: number;
}

/**
 * Listing totals and page ids (get_goods_page, search_page) kept under the catalogue version of migration 0004,
 * which triggers move on every change to goods, their colours or filters, whoever writes them (an admin on another
 * server process, a bulk load). Counting the matches of a filter or a word is what grows with the catalogue (tens of
 * milliseconds at 100,000 goods); reading the version is one primary-key lookup, so an unchanged catalogue answers
 * a repeated listing from memory, and the goods themselves (prices, stock, images) are still read fresh each time.
 */
const versionQueries = new WeakMap<Kysely<Database>, CompiledQuery<{ version: number; stock_version: number }>>();

export class ListingCache {
  private readonly entries = new Map<string, unknown>();
  private version: string | null = null;

  /**
   * `withStock`: also dropped when any stock moves (for what shows stock, like a list answer's bytes); without it,
   * only the catalogue version counts (listing totals and page ids do not depend on stock).
   */
  constructor(
    private readonly maxEntries = 1000,
    private readonly withStock = false,
  ) {}

  /**
   * Reads the versions once for one request; what it remembers is dropped when the catalogue version moves, or
   * (`withStock`) the stock version.
   */
  async view(db: Kysely<Database>): Promise<ListingView> {
    // Compiled once per database: this read runs on every listing request.
    let query = versionQueries.get(db);
    if (!query) {
      query = db.selectFrom('catalogue_state').select(['version', 'stock_version']).where('id', '=', 1).compile();
      versionQueries.set(db, query);
    }
    const [row] = (await db.executeQuery(query)).rows;
    const version = this.withStock ? `${row?.version ?? 0}:${row?.stock_version ?? 0}` : String(row?.version ?? 0);
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    return new ListingView(this, version);
  }

  /** @internal */
  read<T>(version: string, key: string): T | undefined {
    if (version !== this.version || !this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as T;
    // Least recently used goes first: move this one to the end.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** @internal */
  write(version: string, key: string, value: unknown): void {
    // Computed from data at least as new as `version`; a newer version has already emptied the map.
    if (version !== this.version) return;
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

export class ListingView {
  constructor(
    private readonly cache: ListingCache,
    private readonly version: string,
  ) {}

  async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const known = this.cache.read<T>(this.version, key);
    if (known !== undefined) return known;
    const value = await compute();
    this.cache.write(this.version, key, value);
    return value;
  }
}
