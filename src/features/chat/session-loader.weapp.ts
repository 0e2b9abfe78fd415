import { startChatSession } from './session';
import type { loadChatSessionWhenSignedIn as Load } from './session-loader';

export const loadChatSessionWhenSignedIn: typeof Load = () => {
  startChatSession();
};
