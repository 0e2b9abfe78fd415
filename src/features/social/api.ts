import { post, upload } from '@/core/request';
import type {
  AddImagesRequest,
  AlbumInput,
  CollectKind,
  LikeKind,
  NoticeKind,
  UpdateProfileRequest,
} from '../../../types/api';

/** The social endpoints (server/api/social.ts). A missing user_id means the signed-in user. */

export type PeopleList = 'followers' | 'following' | 'all';

export const loadProfile = (userId?: number) => post('/api/social/profile', userId ? { user_id: userId } : {});
export const updateProfile = (changes: UpdateProfileRequest) => post('/api/social/update_profile', changes);
export const follow = (userId: number) => post('/api/social/follow', { user_id: userId }, { loading: false });
export const unfollow = (userId: number) => post('/api/social/unfollow', { user_id: userId }, { loading: false });

export function loadPeople(list: PeopleList, options: { userId?: number; keyword?: string; page?: number } = {}) {
  if (list === 'all')
    return post('/api/social/users', {
      keyword: options.keyword || undefined,
      page: options.page ?? 1,
    });
  return post(`/api/social/${list}`, { user_id: options.userId, page: options.page ?? 1 });
}

export const loadTrends = (userId?: number, page = 1) => post('/api/social/trends', { user_id: userId, page });

/** Uploads a chosen image for albums and avatars; any signed-in user may. */
export const uploadSocialImage = (filePath: string, fileName?: string) =>
  upload('/api/social/upload_image', filePath, 'SOCIAL', { fileName });

export const loadAlbums = (userId?: number) => post('/api/social/albums', userId ? { user_id: userId } : {});
export const loadAlbum = (albumId: number) => post('/api/social/album', { album_id: albumId });
export const createAlbum = (input: AlbumInput) => post('/api/social/create_album', input);
export const deleteAlbum = (albumId: number) => post('/api/social/delete_album', { album_id: albumId });
export const addImages = (input: AddImagesRequest) => post('/api/social/add_images', input);
export const deleteImage = (imageId: number) => post('/api/social/delete_image', { image_id: imageId });

export const loadTags = (keyword?: string) => post('/api/social/tags', keyword ? { keyword } : {});
export const tagImage = (imageId: number, tags: string[]) => post('/api/social/tag_image', { image_id: imageId, tags });
export const loadTagImages = (tagId: number, page = 1) => post('/api/social/tag_images', { tag_id: tagId, page });

export const collect = (kind: CollectKind, targetId: number) =>
  post('/api/social/collect', { kind, target_id: targetId }, { loading: false });
export const uncollect = (kind: CollectKind, targetId: number) =>
  post('/api/social/uncollect', { kind, target_id: targetId }, { loading: false });
export const loadCollectedAlbums = (page = 1) => post('/api/social/collected_albums', { page });
export const loadCollectedImages = (page = 1) => post('/api/social/collected_images', { page });

export const like = (kind: LikeKind, targetId: number) =>
  post('/api/social/like', { kind, target_id: targetId }, { loading: false });
export const unlike = (kind: LikeKind, targetId: number) =>
  post('/api/social/unlike', { kind, target_id: targetId }, { loading: false });
export const loadLikes = (kind: LikeKind, targetId: number) =>
  post('/api/social/likes', { kind, target_id: targetId }, { loading: false });

export const loadComments = (kind: LikeKind, targetId: number, page = 1) =>
  post('/api/social/comments', { kind, target_id: targetId, page }, { loading: false });
export const addComment = (kind: LikeKind, targetId: number, content: string) =>
  post('/api/social/add_comment', { kind, target_id: targetId, content });

export const loadGroups = () => post('/api/social/groups', {});
export const loadGroup = (groupId: number) => post('/api/social/group', { group_id: groupId });
export const createGroup = (name: string, memberIds: number[]) =>
  post('/api/social/create_group', { name, member_ids: memberIds });
export const joinGroup = (groupId: number) => post('/api/social/join_group', { group_id: groupId });

export const loadNotices = (kind: NoticeKind, page = 1) => post('/api/social/notifications', { kind, page });

/** The server's message of a refused call ('field: problem'), or the fallback. */
export function refusal(reason: unknown, fallback: string): string {
  if (
    typeof reason === 'object' &&
    reason !== null &&
    'msg' in reason &&
    typeof (reason as { msg: unknown }).msg === 'string'
  ) {
    return (reason as { msg: string }).msg;
  }
  if (reason instanceof Error && reason.message) return reason.message;
  return fallback;
}
