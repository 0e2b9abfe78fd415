import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema';

/** Copies the seeded goods (with colours and filters) until the catalogue has `target` rows. */
export async function growCatalogue(db: Kysely<Database>, target: number): Promise<void> {
  const templates = await db.selectFrom('goods').selectAll().where('deleted', '=', 0).orderBy('id').limit(48).execute();
  const ids = templates.map((goods) => goods.id);
  const colors = await db.selectFrom('goods_colors').selectAll().where('goods_id', 'in', ids).execute();
  const filters = await db.selectFrom('goods_filters').selectAll().where('goods_id', 'in', ids).execute();
  const group = <T extends { goods_id: number }>(rows: T[]) => {
    const byGoods = new Map<number, T[]>();
    for (const row of rows) byGoods.set(row.goods_id, [...(byGoods.get(row.goods_id) ?? []), row]);
    return byGoods;
  };
  const colorsOf = group(colors);
  const filtersOf = group(filters);
  let count = Number(
    (
      await db
        .selectFrom('goods')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const words = ['Studio', 'Metro', 'Coast', 'Atlas', 'Nova', 'Harbor', 'Ridge', 'Vale', 'Lumen', 'Orbit'];
  while (count < target) {
    const batch = Math.min(500, target - count);
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: batch }, (_, i) => {
        const template = templates[(count + i) % templates.length];
        // PostgreSQL computes search_vector (a generated column) itself.
        const {
          id: _id,
          search_vector: _vector,
          ...fields
        } = template as typeof template & { search_vector?: unknown };
        const name = `${template.name} ${words[(count + i) % words.length]} ${count + i}`;
        return { ...fields, name, search_text: `${name.toLowerCase()} ${template.search_text}` };
      });
      const created = await trx.insertInto('goods').values(rows).returning(['id', 'name']).execute();
      const templateOf = new Map(rows.map((row, i) => [row.name, templates[(count + i) % templates.length].id]));
      const copies = <T>(byGoods: Map<number, T[]>, name: string) => byGoods.get(templateOf.get(name) as number) ?? [];
      const newColors = created.flatMap((goods) =>
        copies(colorsOf, goods.name).map(({ id: _id, ...c }) => ({ ...c, goods_id: goods.id })),
      );
      const newFilters = created.flatMap((goods) =>
        copies(filtersOf, goods.name).map((f) => ({ ...f, goods_id: goods.id })),
      );
      await trx.insertInto('goods_colors').values(newColors).execute();
      await trx.insertInto('goods_filters').values(newFilters).execute();
    });
    count += batch;
  }
}
