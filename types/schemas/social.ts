/** The social side: people and follows, albums and images, tags, collections, likes, comments, groups, notices. */
import { z } from 'zod';
import { pageFields, person } from './common';

const required = { required_error: 'is required', invalid_type_error: 'must be a number' };
export const refId = z.number(required).int('must be an integer').positive('must be positive');
export const LIKE_KINDS = ['article', 'image'] as const;
export const COLLECT_KINDS = ['album', 'image'] as const;
export const NOTICE_KINDS = ['likes', 'followers', 'comments'] as const;
export const likeKind = z.enum(LIKE_KINDS, { errorMap: () => ({ message: 'must be article or image' }) });
export const collectKind = z.enum(COLLECT_KINDS, { errorMap: () => ({ message: 'must be album or image' }) });
const imageUrl = z
  .string({ required_error: 'is required' })
  .trim()
  .max(500)
  .regex(/^(\/uploads\/|https?:\/\/)/, 'must be an uploaded image or an http(s) URL');
const tagName = z.string().trim().min(1, 'is required').max(30, 'must be at most 30 characters');
const name = (max: number) =>
  z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`);

export const COMMENT_MAX = 500;
export const GROUP_MEMBERS_MAX = 200;

/* ---- answers */

/** A user as lists show them. */
export const userCard = z.object({
  user_id: z.number(),
  nickname: z.string(),
  avatar: z.string(),
  bio: z.string(),
  /** Whether the signed-in user follows this user (false for guests). */
  is_following: z.boolean(),
});

export const socialProfile = userCard.extend({
  is_admin: z.boolean(),
  is_me: z.boolean(),
  followers: z.number(),
  following: z.number(),
  articles: z.number(),
  albums: z.number(),
});

export const followResult = z.object({
  user_id: z.number(),
  is_following: z.boolean(),
  /** The followed user's follower count after the change. */
  followers: z.number(),
});

export const tag = z.object({ tag_id: z.number(), name: z.string(), image_count: z.number() });

export const socialImage = z.object({
  image_id: z.number(),
  album_id: z.number(),
  url: z.string(),
  caption: z.string(),
  owner: person,
  tags: z.array(tag),
  likes: z.number(),
  liked: z.boolean(),
  collected: z.boolean(),
  created_at: z.number(),
});

export const album = z.object({
  album_id: z.number(),
  name: z.string(),
  description: z.string(),
  /** The chosen cover, else the newest image, else ''. */
  cover: z.string(),
  owner: person,
  image_count: z.number(),
  collected: z.boolean(),
  created_at: z.number(),
});

export const albumDetail = album.extend({ images: z.array(socialImage) });

export const comment = z.object({
  comment_id: z.number(),
  kind: z.enum(LIKE_KINDS),
  target_id: z.number(),
  /** Plain text: the server strips every tag. */
  content: z.string(),
  author: person,
  created_at: z.number(),
});

export const socialGroup = z.object({
  group_id: z.number(),
  name: z.string(),
  owner_id: z.number(),
  member_count: z.number(),
  is_member: z.boolean(),
  created_at: z.number(),
});

export const groupWithMembers = socialGroup.extend({ members: z.array(userCard) });

/** Something that happened to the signed-in user's content: a like, a new follower or a comment. */
export const notice = z.object({
  kind: z.enum(NOTICE_KINDS),
  from: person,
  /** What was liked or commented on; null for a new follower. */
  target: z
    .object({ kind: z.enum(LIKE_KINDS), target_id: z.number(), title: z.string(), image: z.string() })
    .nullable(),
  /** The comment text, for comments. */
  content: z.string(),
  created_at: z.number(),
});

export const likeState = z.object({ liked: z.boolean(), likes: z.number() });
export const collectState = z.object({ collected: z.boolean() });
export const leftResult = z.object({ left: z.literal(true) });

/* ---- requests */

/** Absent user_id: the signed-in user. */
export const ownerRequest = z.object({ user_id: refId.optional() });
export const userIdRequest = z.object({ user_id: refId });
export const userListRequest = z.object({ ...pageFields, user_id: refId.optional() });
export const userSearchRequest = z.object({ ...pageFields, keyword: z.string().trim().max(60).optional() });
export const updateProfileRequest = z.object({
  nickname: name(40).optional(),
  bio: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  avatar: imageUrl.optional(),
});
export const albumIdRequest = z.object({ album_id: refId });
export const albumInput = z.object({
  name: name(40),
  description: z.string().trim().max(300, 'must be at most 300 characters').default(''),
  cover: imageUrl.or(z.literal('')).default(''),
});
export const addImagesRequest = z.object({
  album_id: refId,
  images: z
    .array(
      z.object({
        url: imageUrl,
        caption: z.string().trim().max(200).default(''),
        tags: z.array(tagName).max(10).default([]),
      }),
      { required_error: 'is required' },
    )
    .min(1, 'add at least one image')
    .max(30, 'at most 30 images at once'),
});
export const imageIdRequest = z.object({ image_id: refId });
export const tagSearchRequest = z.object({ keyword: z.string().trim().max(30).optional() });
export const tagNameRequest = z.object({ name: tagName });
export const tagImageRequest = z.object({
  image_id: refId,
  /** Tag names; unknown ones are created. */
  tags: z.array(tagName, { required_error: 'is required' }).min(1, 'choose at least one tag').max(10),
});
export const tagImagesRequest = z.object({ ...pageFields, tag_id: refId });
export const collectRequest = z.object({ kind: collectKind, target_id: refId });
export const pageRequest = z.object(pageFields);
export const targetRequest = z.object({ kind: likeKind, target_id: refId });
export const commentListRequest = targetRequest.extend(pageFields);
export const addCommentRequest = targetRequest.extend({
  content: z
    .string({ required_error: 'is required' })
    .max(COMMENT_MAX * 4, `must be at most ${COMMENT_MAX} characters`),
});
export const commentIdRequest = z.object({ comment_id: refId });
export const groupIdRequest = z.object({ group_id: refId });
export const createGroupRequest = z.object({
  name: name(40),
  member_ids: z
    .array(refId)
    .max(GROUP_MEMBERS_MAX - 1, `at most ${GROUP_MEMBERS_MAX - 1} members`)
    .default([]),
});
export const noticeRequest = z.object({
  ...pageFields,
  kind: z.enum(NOTICE_KINDS, { errorMap: () => ({ message: 'must be likes, followers or comments' }) }),
});

/** The multipart form of upload_image. */
export const imageUploadForm = z.object({});
