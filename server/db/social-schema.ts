import type { ColumnDefinitionBuilder, CreateTableBuilder, Generated, Kysely, Migration } from 'kysely';
import type { Dialect } from './connection';
import type { Database } from './schema';

/** What a like, a comment or a collection points at. */
export type LikeTarget = 'article' | 'image';
export type CollectTarget = 'album' | 'image';

export interface FollowsTable {
  follower_id: number;
  followee_id: number;
  created_at: number;
}

export interface AlbumsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string;
  cover: string;
  created_at: number;
}

export interface AlbumImagesTable {
  id: Generated<number>;
  user_id: number;
  album_id: number;
  url: string;
  caption: string;
  created_at: number;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
  created_by: number;
  created_at: number;
}

export interface ImageTagsTable {
  image_id: number;
  tag_id: number;
}

export interface CollectionsTable {
  user_id: number;
  kind: CollectTarget;
  target_id: number;
  created_at: number;
}

export interface LikesTable {
  user_id: number;
  kind: LikeTarget;
  target_id: number;
  created_at: number;
}

export interface CommentsTable {
  id: Generated<number>;
  user_id: number;
  kind: LikeTarget;
  target_id: number;
  content: string;
  created_at: number;
}

export interface SocialGroupsTable {
  id: Generated<number>;
  name: string;
  owner_id: number;
  created_at: number;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  joined_at: number;
}

export interface SocialTables {
  follows: FollowsTable;
  albums: AlbumsTable;
  album_images: AlbumImagesTable;
  tags: TagsTable;
  image_tags: ImageTagsTable;
  collections: CollectionsTable;
  likes: LikesTable;
  comments: CommentsTable;
  social_groups: SocialGroupsTable;
  group_members: GroupMembersTable;
}

/** The database with the social tables (every table is in `Database`). */
export type SocialDatabase = Database;

type Table = CreateTableBuilder<string, never>;

/** The social tables; prefixed `s` so they run after the core and messaging migrations. */
export function socialMigrations(dialect: Dialect): Record<string, Migration> {
  const withId = (db: Kysely<unknown>, name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
        dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
      ) as Table;
  const userRef = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
  return {
    s0001_social: {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('follows')
          .addColumn('follower_id', 'integer', userRef)
          .addColumn('followee_id', 'integer', userRef)
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followee_id'])
          .execute();
        await db.schema.createIndex('follows_followee').on('follows').columns(['followee_id', 'created_at']).execute();
        await withId(db, 'albums')
          .addColumn('user_id', 'integer', userRef)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('albums_user').on('albums').column('user_id').execute();
        await withId(db, 'album_images')
          .addColumn('user_id', 'integer', userRef)
          .addColumn('album_id', 'integer', (c) => c.notNull().references('albums.id').onDelete('cascade'))
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('caption', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('album_images_album').on('album_images').columns(['album_id', 'id']).execute();
        await withId(db, 'tags')
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('created_by', 'integer', userRef)
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('image_tags')
          .addColumn('image_id', 'integer', (c) => c.notNull().references('album_images.id').onDelete('cascade'))
          .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
          .addPrimaryKeyConstraint('image_tags_pk', ['image_id', 'tag_id'])
          .execute();
        await db.schema.createIndex('image_tags_tag').on('image_tags').columns(['tag_id', 'image_id']).execute();
        await db.schema
          .createTable('collections')
          .addColumn('user_id', 'integer', userRef)
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('target_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('collections_pk', ['user_id', 'kind', 'target_id'])
          .execute();
        await db.schema
          .createTable('likes')
          .addColumn('user_id', 'integer', userRef)
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('target_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('likes_pk', ['user_id', 'kind', 'target_id'])
          .execute();
        await db.schema.createIndex('likes_target').on('likes').columns(['kind', 'target_id']).execute();
        await withId(db, 'comments')
          .addColumn('user_id', 'integer', userRef)
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('target_id', 'integer', (c) => c.notNull())
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('comments_target').on('comments').columns(['kind', 'target_id', 'id']).execute();
        await withId(db, 'social_groups')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('owner_id', 'integer', userRef)
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('group_members')
          .addColumn('group_id', 'integer', (c) => c.notNull().references('social_groups.id').onDelete('cascade'))
          .addColumn('user_id', 'integer', userRef)
          .addColumn('joined_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
          .execute();
        await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();
      },
    },
  };
}
