/** Notices: likes, new followers and comments on the signed-in user's content, newest first. */
import type { Notice, Page } from '../../../types/api';
import type { ParsedRequestOf } from '../../../types/contract';
import type { UserRow } from '../../auth';
import type { AppContext } from '../../context';
import { pageRows } from '../../http';
import { briefs, count, pageOf, unknownUser } from './views';

export async function notices(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/notifications'>,
): Promise<Page<Notice>> {
  const db = ctx.db;
  const { limit, offset } = pageOf(input);
  if (input.kind === 'followers') {
    const base = db.selectFrom('follows').where('followee_id', '=', me.id);
    const { rows, total } = await pageRows(base, input, (query) =>
      query.select(['follower_id', 'created_at']).orderBy('created_at', 'desc'),
    );
    const people = await briefs(
      db,
      rows.map((row) => row.follower_id),
    );
    const list: Notice[] = rows.map((row) => ({
      kind: 'followers',
      from: people.get(row.follower_id) ?? unknownUser(row.follower_id),
      target: null,
      content: '',
      created_at: row.created_at,
    }));
    return { list, total, page: input.page, page_size: input.page_size };
  }
  const table = input.kind === 'likes' ? 'likes' : 'comments';
  const onMine = (kind: 'article' | 'image') => {
    const owned =
      kind === 'article'
        ? db.selectFrom('articles').select('id').where('author_id', '=', me.id)
        : db.selectFrom('album_images').select('id').where('user_id', '=', me.id);
    return db.selectFrom(table).where('kind', '=', kind).where('target_id', 'in', owned).where('user_id', '!=', me.id);
  };
  const wanted = offset + limit;
  type Row = { user_id: number; kind: 'article' | 'image'; target_id: number; created_at: number; content?: string };
  const columns = ['user_id', 'kind', 'target_id', 'created_at', ...(input.kind === 'comments' ? ['content'] : [])];
  const fetchKind = async (kind: 'article' | 'image') => {
    const query = onMine(kind);
    const [rows, total] = await Promise.all([
      query
        .select(columns as 'user_id'[])
        .orderBy('created_at', 'desc')
        .limit(wanted)
        .execute() as Promise<unknown> as Promise<Row[]>,
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: count(total.n) };
  };
  const [articles, images] = await Promise.all([fetchKind('article'), fetchKind('image')]);
  const merged = [...articles.rows, ...images.rows]
    .sort((a, b) => b.created_at - a.created_at)
    .slice(offset, offset + limit);
  const articleIds = merged.filter((row) => row.kind === 'article').map((row) => row.target_id);
  const imageIds = merged.filter((row) => row.kind === 'image').map((row) => row.target_id);
  const [people, articleRows, imageRows] = await Promise.all([
    briefs(
      db,
      merged.map((row) => row.user_id),
    ),
    articleIds.length
      ? db.selectFrom('articles').select(['id', 'title', 'cover']).where('id', 'in', articleIds).execute()
      : Promise.resolve([]),
    imageIds.length
      ? db.selectFrom('album_images').select(['id', 'caption', 'url']).where('id', 'in', imageIds).execute()
      : Promise.resolve([]),
  ]);
  const articleBy = new Map(articleRows.map((row) => [row.id, { title: row.title, image: row.cover }]));
  const imageBy = new Map(imageRows.map((row) => [row.id, { title: row.caption, image: row.url }]));
  const list: Notice[] = merged.map((row) => {
    const about = (row.kind === 'article' ? articleBy : imageBy).get(row.target_id) ?? { title: '', image: '' };
    return {
      kind: input.kind,
      from: people.get(row.user_id) ?? unknownUser(row.user_id),
      target: { kind: row.kind, target_id: row.target_id, ...about },
      content: row.content ?? '',
      created_at: row.created_at,
    };
  });
  return { list, total: articles.total + images.total, page: input.page, page_size: input.page_size };
}
