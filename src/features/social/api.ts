import { post, upload } from '@/core/request';
import type {
  AddImagesRequest,
  Album,
  AlbumDetail,
  AlbumInput,
  ArticleSummary,
  CollectKind,
  Comment,
  FollowResult,
  LikeKind,
  Notice,
  NoticeKind,
  Page,
  SocialGroup,
  SocialImage,
  SocialProfile,
  Tag,
  UpdateProfileRequest,
  UserCard,
} from '../../../types/api';

/** The social endpoints (server/api/social.ts). A missing user_id means the signed-in user. */

export type PeopleList = 'followers' | 'following' | 'all';

export const loadProfile = (userId?: number) =>
  post<SocialProfile>('/api/social/profile', userId ? { user_id: userId } : {});
export const updateProfile = (changes: UpdateProfileRequest) =>
  post<SocialProfile>('/api/social/update_profile', changes);
export const follow = (userId: number) =>
  post<FollowResult>('/api/social/follow', { user_id: userId }, { loading: false });
export const unfollow = (userId: number) =>
  post<FollowResult>('/api/social/unfollow', { user_id: userId }, { loading: false });

export function loadPeople(list: PeopleList, options: { userId?: number; keyword?: string; page?: number } = {}) {
  if (list === 'all')
    return post<Page<UserCard>>('/api/social/users', {
      keyword: options.keyword || undefined,
      page: options.page ?? 1,
    });
  return post<Page<UserCard>>(`/api/social/${list}`, { user_id: options.userId, page: options.page ?? 1 });
}

export const loadTrends = (userId?: number, page = 1) =>
  post<Page<ArticleSummary>>('/api/social/trends', { user_id: userId, page });

/** Uploads a chosen image for albums and avatars; any signed-in user may. */
export const uploadSocialImage = (filePath: string, fileName?: string) =>
  upload('/api/social/upload_image', filePath, 'SOCIAL', { fileName });

export const loadAlbums = (userId?: number) => post<Album[]>('/api/social/albums', userId ? { user_id: userId } : {});
export const loadAlbum = (albumId: number) => post<AlbumDetail>('/api/social/album', { album_id: albumId });
export const createAlbum = (input: AlbumInput) => post<Album>('/api/social/create_album', input);
export const deleteAlbum = (albumId: number) =>
  post<{ deleted: true }>('/api/social/delete_album', { album_id: albumId });
export const addImages = (input: AddImagesRequest) => post<SocialImage[]>('/api/social/add_images', input);
export const deleteImage = (imageId: number) =>
  post<{ deleted: true }>('/api/social/delete_image', { image_id: imageId });

export const loadTags = (keyword?: string) => post<Tag[]>('/api/social/tags', keyword ? { keyword } : {});
export const tagImage = (imageId: number, tags: string[]) =>
  post<SocialImage>('/api/social/tag_image', { image_id: imageId, tags });
export const loadTagImages = (tagId: number, page = 1) =>
  post<Page<SocialImage> & { tag: Tag }>('/api/social/tag_images', { tag_id: tagId, page });

export const collect = (kind: CollectKind, targetId: number) =>
  post<{ collected: boolean }>('/api/social/collect', { kind, target_id: targetId }, { loading: false });
export const uncollect = (kind: CollectKind, targetId: number) =>
  post<{ collected: boolean }>('/api/social/uncollect', { kind, target_id: targetId }, { loading: false });
export const loadCollectedAlbums = (page = 1) => post<Page<Album>>('/api/social/collected_albums', { page });
export const loadCollectedImages = (page = 1) => post<Page<SocialImage>>('/api/social/collected_images', { page });

type LikeState = { liked: boolean; likes: number };
export const like = (kind: LikeKind, targetId: number) =>
  post<LikeState>('/api/social/like', { kind, target_id: targetId }, { loading: false });
export const unlike = (kind: LikeKind, targetId: number) =>
  post<LikeState>('/api/social/unlike', { kind, target_id: targetId }, { loading: false });
export const loadLikes = (kind: LikeKind, targetId: number) =>
  post<LikeState>('/api/social/likes', { kind, target_id: targetId }, { loading: false });

export const loadComments = (kind: LikeKind, targetId: number, page = 1) =>
  post<Page<Comment>>('/api/social/comments', { kind, target_id: targetId, page }, { loading: false });
export const addComment = (kind: LikeKind, targetId: number, content: string) =>
  post<Comment>('/api/social/add_comment', { kind, target_id: targetId, content });

export const loadGroups = () => post<SocialGroup[]>('/api/social/groups', {});
export const loadGroup = (groupId: number) =>
  post<SocialGroup & { members: UserCard[] }>('/api/social/group', { group_id: groupId });
export const createGroup = (name: string, memberIds: number[]) =>
  post<SocialGroup>('/api/social/create_group', { name, member_ids: memberIds });
export const joinGroup = (groupId: number) => post<SocialGroup>('/api/social/join_group', { group_id: groupId });

export const loadNotices = (kind: NoticeKind, page = 1) =>
  post<Page<Notice>>('/api/social/notifications', { kind, page });

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
