import Taro from '@tarojs/taro';

/** The confirmation texts of shop-app.md §6, verbatim (full-width question marks). */
export const CONFIRM_DELETE_ARTICLE = 'Do you want to delete this article？';
export const CONFIRM_DELETE_GOODS = 'Do you want to delete this glasses？';
export const CONFIRM_CREATE_GOODS = 'Do you want create new glasses？';

/** Asks before a create or delete; true only when the admin confirms. */
export async function confirmAction(content: string): Promise<boolean> {
  const answer = await Taro.showModal({ title: 'Please confirm', content, confirmText: 'Yes', cancelText: 'Cancel' });
  return answer.confirm;
}
