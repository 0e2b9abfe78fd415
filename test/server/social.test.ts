import { ADA, ADMIN, BEN, type TestServer, engines, startServer } from './helpers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function imageForm(name: string, bytes: Buffer): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}

describe.each(engines)('social API on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let ada: string;
  let ben: string;
  let ids: { admin: number; ada: number; ben: number };
  beforeAll(async () => {
    s = await startServer(engine);
    [admin, ada, ben] = await Promise.all([
      s.login(ADMIN.email, ADMIN.password),
      s.login(ADA.email, ADA.password),
      s.login(BEN.email, BEN.password),
    ]);
    const me = async (token: string) =>
      (await s.call('POST', '/api/social/profile', {}, token)).body.data.user_id as number;
    ids = { admin: await me(admin), ada: await me(ada), ben: await me(ben) };
  });
  afterAll(async () => {
    await s.close();
  });

  test('the demo data has followers, an album with tagged images, a like, a comment and a group', async () => {
    const profile = (await s.call('POST', '/api/social/profile', { user_id: ids.ada }, ben)).body.data;
    expect(profile).toMatchObject({
      nickname: 'Ada',
      followers: 1,
      following: 1,
      albums: 1,
      is_following: true,
      is_me: false,
    });
    const albums = (await s.call('POST', '/api/social/albums', { user_id: ids.ada })).body.data;
    expect(albums[0].name).toBe('Summer frames');
    expect(albums[0].image_count).toBeGreaterThan(0);
    expect(albums[0].cover).toMatch(/^\/uploads\//);
    const groups = (await s.call('POST', '/api/social/groups', {}, ben)).body.data;
    expect(groups[0]).toMatchObject({ name: 'Lensmate friends', member_count: 3, is_member: true });
    const notices = (await s.call('POST', '/api/social/notifications', { kind: 'comments' }, ada)).body.data;
    expect(notices.list[0]).toMatchObject({ kind: 'comments', content: 'Those suit you!', from: { nickname: 'Ben' } });
  });

  test('follow and unfollow change both follower lists and the counts', async () => {
    const followers = async () => (await s.call('POST', '/api/social/followers', { user_id: ids.ben })).body.data;
    expect((await followers()).list.map((u: any) => u.user_id)).not.toContain(ids.admin);
    const followed = await s.call('POST', '/api/social/follow', { user_id: ids.ben }, admin);
    expect(followed.body.data).toEqual({ user_id: ids.ben, is_following: true, followers: 1 });
    expect((await s.call('POST', '/api/social/follow', { user_id: ids.ben }, admin)).body.data.followers).toBe(1);
    expect((await followers()).list.map((u: any) => u.nickname)).toEqual(['Lensmate Admin']);
    const following = (await s.call('POST', '/api/social/following', {}, admin)).body.data;
    expect(following.list).toEqual([
      expect.objectContaining({ user_id: ids.ben, nickname: 'Ben', is_following: true }),
    ]);
    const notice = (await s.call('POST', '/api/social/notifications', { kind: 'followers' }, ben)).body.data;
    expect(notice.list[0].from.nickname).toBe('Lensmate Admin');

    const unfollowed = await s.call('POST', '/api/social/unfollow', { user_id: ids.ben }, admin);
    expect(unfollowed.body.data).toEqual({ user_id: ids.ben, is_following: false, followers: 0 });
    expect((await followers()).total).toBe(0);
    expect((await s.call('POST', '/api/social/following', {}, admin)).body.data.total).toBe(0);
  });

  test('bad follow requests get clear errors', async () => {
    expect((await s.call('POST', '/api/social/follow', { user_id: ids.ada }, ada)).body).toMatchObject({
      status: 400,
      msg: 'user_id: you cannot follow yourself',
    });
    expect((await s.call('POST', '/api/social/follow', { user_id: 'x' }, ada)).body).toMatchObject({
      status: 400,
      msg: 'user_id: must be a number',
    });
    expect((await s.call('POST', '/api/social/follow', {}, ada)).body).toMatchObject({
      status: 400,
      msg: 'user_id: is required',
    });
    expect((await s.call('POST', '/api/social/follow', { user_id: 99999 }, ada)).body).toMatchObject({
      status: 404,
      msg: 'user_id: no such user',
    });
    expect((await s.call('POST', '/api/social/follow', { user_id: ids.ben })).body).toMatchObject({
      status: 403,
      msg: 'Invalid token',
    });
    expect((await s.call('POST', '/api/social/follow', { user_id: ids.ben }, 'stale')).body.status).toBe(401);
  });

  test('profiles: the own profile, edits with validation, and the user search', async () => {
    expect((await s.call('POST', '/api/social/profile', {}, ada)).body.data).toMatchObject({
      is_me: true,
      bio: 'Round frames and long walks.',
    });
    const edited = await s.call(
      'POST',
      '/api/social/update_profile',
      { nickname: '  Ada L. ', bio: 'Optician fan' },
      ada,
    );
    expect(edited.body.data).toMatchObject({ nickname: 'Ada L.', bio: 'Optician fan' });
    expect((await s.call('POST', '/api/social/update_profile', { nickname: '' }, ada)).body).toMatchObject({
      status: 400,
      msg: 'nickname: is required',
    });
    expect((await s.call('POST', '/api/social/update_profile', { avatar: 'javascript:alert(1)' }, ada)).body.msg).toBe(
      'avatar: must be an uploaded image or an http(s) URL',
    );
    expect((await s.call('POST', '/api/social/update_profile', {}, ada)).body).toMatchObject({
      status: 400,
      msg: 'body: nothing to change',
    });
    const found = (await s.call('POST', '/api/social/users', { keyword: 'ada' }, ben)).body.data;
    expect(found.list).toEqual([expect.objectContaining({ nickname: 'Ada L.', is_following: true })]);
    expect((await s.call('POST', '/api/social/users', { keyword: '%' }, ben)).body.data.total).toBe(0);
    const others = (await s.call('POST', '/api/social/users', {}, ben)).body.data.list.map((u: any) => u.user_id);
    expect(others).not.toContain(ids.ben);
  });

  test('trends: a user’s articles, and the feed of followed users', async () => {
    const own = (await s.call('POST', '/api/social/trends', { user_id: ids.admin })).body.data;
    expect(own.total).toBeGreaterThan(0);
    expect(own.list[0].author.user_id).toBe(ids.admin);
    expect((await s.call('POST', '/api/social/trends', { user_id: ids.ben })).body.data.total).toBe(0);
    expect((await s.call('POST', '/api/social/trends', {}, ada)).body.data.total).toBe(own.total);
    expect((await s.call('POST', '/api/social/trends', {}, ben)).body.data.total).toBe(0);
    expect((await s.call('POST', '/api/social/trends', {})).body.status).toBe(403);
  });

  test('albums, uploads, tags and tag images', async () => {
    const uploaded = await s.call('POST', '/api/social/upload_image', imageForm('me.png', PNG), ben);
    expect(uploaded.body.data.url).toMatch(/^\/uploads\/social\/.+\.png$/);
    expect((await s.fetchRaw(uploaded.body.data.url)).http).toBe(200);
    expect((await s.call('POST', '/api/social/upload_image', imageForm('clip.mp4', PNG), ben)).body.msg).toMatch(
      /^file: the extension must be one of jpg/,
    );

    expect((await s.call('POST', '/api/social/create_album', { name: ' ' }, ben)).body).toMatchObject({
      status: 400,
      msg: 'name: is required',
    });
    const album = (await s.call('POST', '/api/social/create_album', { name: 'Ben’s frames', description: 'Mine' }, ben))
      .body.data;
    expect(album).toMatchObject({ name: 'Ben’s frames', image_count: 0, cover: '' });
    expect(
      (await s.call('POST', '/api/social/add_images', { album_id: album.album_id, images: [] }, ben)).body.msg,
    ).toBe('images: add at least one image');
    expect(
      (await s.call('POST', '/api/social/add_images', { album_id: album.album_id, images: [{ url: 'ftp://x' }] }, ben))
        .body.msg,
    ).toBe('images.0.url: must be an uploaded image or an http(s) URL');
    const added = await s.call(
      'POST',
      '/api/social/add_images',
      {
        album_id: album.album_id,
        images: [{ url: uploaded.body.data.url, caption: '<b>Me</b>', tags: ['Round', 'Ben picks'] }],
      },
      ben,
    );
    expect(added.body.data[0]).toMatchObject({
      caption: 'Me',
      tags: [expect.objectContaining({ name: 'Ben picks' }), expect.objectContaining({ name: 'Round' })],
    });
    expect(
      (
        await s.call(
          'POST',
          '/api/social/add_images',
          { album_id: album.album_id, images: [{ url: uploaded.body.data.url }] },
          ada,
        )
      ).body.status,
    ).toBe(403);

    const detail = (await s.call('POST', '/api/social/album', { album_id: album.album_id })).body.data;
    expect(detail).toMatchObject({ image_count: 1, cover: uploaded.body.data.url });
    expect(detail.images[0].owner.nickname).toBe('Ben');

    const tags = (await s.call('POST', '/api/social/tags', { keyword: 'round' })).body.data;
    expect(tags).toEqual([expect.objectContaining({ name: 'Round', image_count: 2 })]);
    const tagged = (await s.call('POST', '/api/social/tag_images', { tag_id: tags[0].tag_id })).body.data;
    expect(tagged.total).toBe(2);
    expect(tagged.list[0].url).toBe(uploaded.body.data.url);
    const created = (await s.call('POST', '/api/social/create_tag', { name: 'Gold rims' }, ben)).body.data;
    const retagged = (
      await s.call('POST', '/api/social/tag_image', { image_id: detail.images[0].image_id, tags: ['Gold rims'] }, ben)
    ).body.data;
    expect(retagged.tags.map((t: any) => t.tag_id)).toContain(created.tag_id);

    expect((await s.call('POST', '/api/social/delete_album', { album_id: album.album_id }, ada)).body.status).toBe(403);
    expect((await s.call('POST', '/api/social/delete_album', { album_id: album.album_id }, ben)).body.data).toEqual({
      deleted: true,
    });
    expect((await s.call('POST', '/api/social/album', { album_id: album.album_id })).body).toMatchObject({
      status: 404,
      msg: 'album_id: no such album',
    });
  });

  test('collections of albums and images, likes and comments with sanitized text', async () => {
    const [album] = (await s.call('POST', '/api/social/albums', { user_id: ids.ada })).body.data;
    const detail = (await s.call('POST', '/api/social/album', { album_id: album.album_id }, admin)).body.data;
    const image = detail.images[0];

    expect(
      (await s.call('POST', '/api/social/collect', { kind: 'album', target_id: album.album_id }, admin)).body.data,
    ).toEqual({ collected: true });
    expect(
      (await s.call('POST', '/api/social/collect', { kind: 'image', target_id: image.image_id }, admin)).body.data,
    ).toEqual({ collected: true });
    expect((await s.call('POST', '/api/social/collect', { kind: 'song', target_id: 1 }, admin)).body.msg).toBe(
      'kind: must be album or image',
    );
    expect((await s.call('POST', '/api/social/collect', { kind: 'album', target_id: 9999 }, admin)).body.msg).toBe(
      'target_id: no such album',
    );
    expect(
      (await s.call('POST', '/api/social/collected_albums', {}, admin)).body.data.list.map((a: any) => a.album_id),
    ).toEqual([album.album_id]);
    const images = (await s.call('POST', '/api/social/collected_images', {}, admin)).body.data;
    expect(images.list).toEqual([expect.objectContaining({ image_id: image.image_id, collected: true })]);
    await s.call('POST', '/api/social/uncollect', { kind: 'image', target_id: image.image_id }, admin);
    expect((await s.call('POST', '/api/social/collected_images', {}, admin)).body.data.total).toBe(0);

    const before = (await s.call('POST', '/api/social/likes', { kind: 'image', target_id: image.image_id }, admin)).body
      .data;
    const liked = (await s.call('POST', '/api/social/like', { kind: 'image', target_id: image.image_id }, admin)).body
      .data;
    expect(liked).toEqual({ liked: true, likes: before.likes + 1 });
    expect(
      (await s.call('POST', '/api/social/like', { kind: 'image', target_id: image.image_id }, admin)).body.data.likes,
    ).toBe(before.likes + 1);
    const likeNotices = (await s.call('POST', '/api/social/notifications', { kind: 'likes' }, ada)).body.data;
    expect(likeNotices.list[0]).toMatchObject({
      from: { user_id: ids.admin },
      target: { kind: 'image', target_id: image.image_id },
    });
    expect(
      (await s.call('POST', '/api/social/unlike', { kind: 'image', target_id: image.image_id }, admin)).body.data,
    ).toEqual({ liked: false, likes: before.likes });

    const article = (await s.call('POST', '/api/article/get_article_list', { page_size: 1 })).body.data.list[0];
    const comment = await s.call(
      'POST',
      '/api/social/add_comment',
      {
        kind: 'article',
        target_id: article.article_id,
        content: '<img src=x onerror=alert(1)>Nice <script>alert(2)</script>read & tips',
      },
      ben,
    );
    expect(comment.body.data).toMatchObject({ content: 'Nice read & tips', author: { nickname: 'Ben' } });
    expect(
      (
        await s.call(
          'POST',
          '/api/social/add_comment',
          { kind: 'article', target_id: article.article_id, content: '<b> </b>' },
          ben,
        )
      ).body,
    ).toMatchObject({
      status: 400,
      msg: 'content: is required',
    });
    expect(
      (
        await s.call(
          'POST',
          '/api/social/add_comment',
          { kind: 'article', target_id: article.article_id, content: 'x'.repeat(501) },
          ben,
        )
      ).body.msg,
    ).toBe('content: must be at most 500 characters');
    const list = (await s.call('POST', '/api/social/comments', { kind: 'article', target_id: article.article_id })).body
      .data;
    expect(list.list[0].content).toBe('Nice read & tips');
    const commentId = comment.body.data.comment_id;
    expect((await s.call('POST', '/api/social/delete_comment', { comment_id: commentId }, ada)).body.status).toBe(403);
    expect((await s.call('POST', '/api/social/delete_comment', { comment_id: commentId }, ben)).body.data).toEqual({
      deleted: true,
    });
  });

  test('groups: create with members, join, members list, leave', async () => {
    expect((await s.call('POST', '/api/social/create_group', { name: '' }, ada)).body.msg).toBe('name: is required');
    expect(
      (await s.call('POST', '/api/social/create_group', { name: 'Trio', member_ids: [99999] }, ada)).body.msg,
    ).toBe('member_ids: no such user 99999');
    const group = (
      await s.call('POST', '/api/social/create_group', { name: 'Duo', member_ids: [ids.ben, ids.ada] }, ada)
    ).body.data;
    expect(group).toMatchObject({ name: 'Duo', owner_id: ids.ada, member_count: 2, is_member: true });
    const joined = (await s.call('POST', '/api/social/join_group', { group_id: group.group_id }, admin)).body.data;
    expect(joined).toMatchObject({ member_count: 3, is_member: true });
    const members = (await s.call('POST', '/api/social/group_members', { group_id: group.group_id }, ben)).body.data;
    expect(members.map((m: any) => m.user_id)).toEqual([ids.ada, ids.ben, ids.admin]);
    expect((await s.call('POST', '/api/social/leave_group', { group_id: group.group_id }, admin)).body.data).toEqual({
      left: true,
    });
    expect((await s.call('POST', '/api/social/leave_group', { group_id: group.group_id }, admin)).body.msg).toBe(
      'group_id: you are not a member',
    );
    const detail = (await s.call('POST', '/api/social/group', { group_id: group.group_id }, ada)).body.data;
    expect(detail.members).toHaveLength(2);
    expect((await s.call('POST', '/api/social/join_group', { group_id: 99999 }, ada)).body).toMatchObject({
      status: 404,
      msg: 'group_id: no such group',
    });
  });
});
