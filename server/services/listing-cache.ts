import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** A listing's answer without its goods: the page's ids in order and the total of the whole listing. */
export interface ListingIds {
  ids: number[];
  total: number;
}

type VersionRow = { version: number; stock_version: number };

const versionQueries = new WeakMap<Kysely<Database>, CompiledQuery<VersionRow>>();

/** The versions read that has not started yet, per database: every listing request until it starts shares it. */
const pendingReads = new WeakMap<Kysely<Database>, Promise<VersionRow | undefined>>();

/**
 * The catalogue and stock versions as they are now. Listing requests that come in together (the ones the event loop
 * takes in one turn) share one read, made once they have all asked (setImmediate): it still starts after each of
 * them arrived, so each sees every change made before it, as its own read would; a read already under way is not
 * joined. Under load this is one primary-key read per turn of the event loop rather than one per request (on
 * SQLite the read takes the file's shared lock, which cost more than the rest of a cached listing).
 */
function readVersions(db: Kysely<Database>): Promise<VersionRow | undefined> {
  const pending = pendingReads.get(db);
  if (pending) return pending;
  // Compiled once per database: this read runs on every listing request.
  let query = versionQueries.get(db);
  if (!query) {
    query = db.selectFrom('catalogue_state').select(['version', 'stock_version']).where('id', '=', 1).compile();
    versionQueries.set(db, query);
  }
  const compiled = query;
  const read = new Promise<VersionRow | undefined>((resolve, reject) => {
    setImmediate(() => {
      pendingReads.delete(db);
      db.executeQuery(compiled).then((result) => resolve(result.rows[0]), reject);
    });
  });
  pendingReads.set(db, read);
  return read;
}

/**
 * Listing totals and page ids (get_goods_page, search_page) kept under the catalogue version of migration 0004,
 * which triggers move on every change to goods, their colours or filters, whoever writes them (an admin on another
 * server process, a bulk load). Counting the matches of a filter or a word is what grows with the catalogue (tens of
 * milliseconds at 100,000 goods); reading the version is one primary-key lookup, so an unchanged catalogue answers
 * a repeated listing from memory, and the goods themselves (prices, stock, images) are still read fresh each time.
 */
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
    const row = await readVersions(db);
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
