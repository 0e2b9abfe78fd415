/** The message and chat routes (shop-app.md §2). */
export const CHAT_PAGES = {
  message: '/pages/message/message',
  notices: '/pages/message/message2',
  agrees: '/pages/message/message-agrees',
  followers: '/pages/message/message-followers',
  comments: '/pages/message/message-comments',
  privateChat: '/pages/message/privateChat/privateChat',
  groups: '/pages/group/group',
  groupChat: '/pages/groupChat/groupChat',
} as const;
