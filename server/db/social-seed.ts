import type { Kysely } from 'kysely';
import type { Database } from './schema';
import type { SocialDatabase } from './social-schema';

/**
 * A little social life for the demo accounts: Ada follows the admin, Ben follows Ada, Ada keeps an album
 * of tagged pictures (the seeded article posters), Ben likes and comments on one, and all three share a group.
 */
export async function seedSocial(database: Kysely<Database>, now: number): Promise<void> {
  const db = database as unknown as Kysely<SocialDatabase>;
  const users = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', ['admin@lensmate.test', 'ada@lensmate.test', 'ben@lensmate.test'])
    .execute();
  const idOf = (email: string) => users.find((user) => user.email === email)?.id;
  const [admin, ada, ben] = [idOf('admin@lensmate.test'), idOf('ada@lensmate.test'), idOf('ben@lensmate.test')];
  if (admin === undefined || ada === undefined || ben === undefined) return;
  const minute = 60_000;
  await db
    .insertInto('follows')
    .values([
      { follower_id: ada, followee_id: admin, created_at: now - 30 * minute },
      { follower_id: ben, followee_id: ada, created_at: now - 20 * minute },
    ])
    .execute();
  await db.updateTable('users').set({ bio: 'Round frames and long walks.' }).where('id', '=', ada).execute();
  const posters = await db.selectFrom('articles').select(['imgs']).orderBy('id').limit(3).execute();
  const urls = posters.flatMap((row) => JSON.parse(row.imgs) as string[]).slice(0, 4);
  const album = await db
    .insertInto('albums')
    .values({
      user_id: ada,
      name: 'Summer frames',
      description: 'What I wore this summer',
      cover: '',
      created_at: now - 10 * minute,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tags = await db
    .insertInto('tags')
    .values(
      ['Sunglasses', 'Round', 'Street style'].map((name) => ({ name, created_by: ada, created_at: now - 10 * minute })),
    )
    .returning(['id', 'name'])
    .execute();
  const imageIds: number[] = [];
  for (const [index, url] of urls.entries()) {
    const image = await db
      .insertInto('album_images')
      .values({
        user_id: ada,
        album_id: album.id,
        url,
        caption: `Look ${index + 1}`,
        created_at: now - (9 - index) * minute,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    imageIds.push(image.id);
    await db
      .insertInto('image_tags')
      .values({ image_id: image.id, tag_id: tags[index % tags.length].id })
      .execute();
  }
  if (imageIds.length > 0) {
    await db
      .insertInto('likes')
      .values({ user_id: ben, kind: 'image', target_id: imageIds[0], created_at: now - 5 * minute })
      .execute();
    await db
      .insertInto('comments')
      .values({
        user_id: ben,
        kind: 'image',
        target_id: imageIds[0],
        content: 'Those suit you!',
        created_at: now - 4 * minute,
      })
      .execute();
    await db
      .insertInto('collections')
      .values({ user_id: ben, kind: 'album', target_id: album.id, created_at: now - 3 * minute })
      .execute();
  }
  const group = await db
    .insertInto('social_groups')
    .values({ name: 'Lensmate friends', owner_id: ada, created_at: now - 2 * minute })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('group_members')
    .values([ada, ben, admin].map((userId) => ({ group_id: group.id, user_id: userId, joined_at: now - 2 * minute })))
    .execute();
}
