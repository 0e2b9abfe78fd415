import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, refused, see, shows, tap, typeInto, waitForPath } from '../account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const owner = { user_id: 2, nickname: 'Ada', avatar: '' };
const roundTag = { tag_id: 9, name: 'Round', image_count: 1 };
type Image = {
  image_id: number;
  album_id: number;
  url: string;
  caption: string;
  owner: typeof owner;
  tags: (typeof roundTag)[];
  likes: number;
  liked: boolean;
  collected: boolean;
  created_at: number;
};
const albums: { album_id: number; name: string; description: string; images: Image[] }[] = [];
let calls: ReturnType<typeof fakeApi>;
let toast: jest.SpyInstance;

const albumOut = (album: (typeof albums)[number]) => ({
  album_id: album.album_id,
  name: album.name,
  description: album.description,
  cover: album.images[0]?.url ?? '',
  owner,
  image_count: album.images.length,
  collected: false,
  created_at: 1,
});

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  toast = jest.spyOn(Taro, 'showToast');
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/social/albums': () => ok(albums.map(albumOut)),
    '/api/social/create_album': (data: any) => {
      if (!data.name) return refused(400, 'name: is required');
      albums.push({ album_id: albums.length + 1, name: data.name, description: data.description, images: [] });
      return ok(albumOut(albums[albums.length - 1]));
    },
    '/api/social/add_images': (data: any) => {
      const album = albums.find((item) => item.album_id === data.album_id);
      const added = data.images.map((image: any, index: number) => ({
        image_id: 100 + index,
        album_id: data.album_id,
        url: image.url,
        caption: image.caption,
        owner,
        tags: image.tags.includes('Round') ? [roundTag] : [],
        likes: 0,
        liked: false,
        collected: false,
        created_at: 1,
      }));
      album?.images.push(...added);
      return ok(added);
    },
    '/api/social/album': (data: any) => {
      const album = albums.find((item) => item.album_id === data.album_id);
      return album ? ok({ ...albumOut(album), images: album.images }) : refused(404, 'album_id: no such album');
    },
    '/api/social/like': ok({ liked: true, likes: 1 }),
    '/api/social/tag_images': ok({ tag: roundTag, list: [], total: 0, page: 1, page_size: 20 }),
  });
  jest.spyOn(Taro, 'chooseImage').mockResolvedValue({
    tempFilePaths: ['blob:1'],
    tempFiles: [{ path: 'blob:1', size: 5, originalFileObj: { name: 'look.png' } }],
  } as never);
  jest.spyOn(Taro, 'uploadFile').mockImplementation(((options: Taro.uploadFile.Option) =>
    Promise.resolve({
      statusCode: 200,
      data: JSON.stringify({ status: 200, msg: 'ok', data: { url: `/uploads/social/${options.fileName}` } }),
      errMsg: 'uploadFile:ok',
    })) as never);
  await mountPages('/pages/user/albums/albums');
});

it('starts empty and offers a new album', async () => {
  await see('No albums yet');
  await tap('+ New album');
  await waitForPath('/pages/user/albums/createalbum');
});

it('asks for a name, then creates the album and goes on to add photos', async () => {
  await tap('Create and add photos');
  await see('Give the album a name');
  await typeInto(page(), 'name', 'Summer frames');
  await tap('Create and add photos');
  await waitForPath('/pages/addalbum/addalbum');
  await see('Summer frames');
});

it('uploads a photo with a caption and tags and shows it in the album', async () => {
  await tap('+ Photos');
  await typeInto(page(), 'caption-0', 'Beach day');
  await typeInto(page(), 'tags', 'Round, Sunglasses');
  await tap('Save to album');
  await waitForPath('/pages/user/albums/albumInfo');
  await see('by Ada · 1 photos');
  expect(calls.find((call) => call.path === '/api/social/upload_image')).toBeUndefined();
  expect(calls.find((call) => call.path === '/api/social/add_images')?.data).toEqual({
    album_id: 1,
    images: [{ url: '/uploads/social/look.png', caption: 'Beach day', tags: ['Round', 'Sunglasses'] }],
  });
});

it('opens a photo with its tags and likes it', async () => {
  (page().querySelector('.social-photo') as HTMLElement).click();
  await see('#Round');
  await tap('♡ 0');
  await see('♥ 1');
  await tap('#Round');
  await waitForPath('/pages/tagImgList/tagImgList');
  await see('No photos with this tag yet');
  expect(shows('#Round')).toBe(true);
});

it('shows the media permission message when the video picker is refused', async () => {
  const { pickVideo, MEDIA_PERMISSION_DENIED } = jest.requireActual('@/features/social/media');
  jest.spyOn(Taro, 'chooseVideo').mockRejectedValueOnce({ errMsg: 'chooseVideo:fail auth denied' });
  toast.mockClear();
  expect(await pickVideo()).toBeNull();
  expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '未授权访问媒体权限，请授权后使用' }));
  expect(MEDIA_PERMISSION_DENIED).toBe('未授权访问媒体权限，请授权后使用');
});
