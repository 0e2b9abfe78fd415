/** The customer-service routes (shop-app.md §2): the shopper's chat and the agents' desk. */
export const CS_PAGES = {
  customer: '/pages/chat/chat',
  agent: '/pages/chat/chat2',
} as const;
