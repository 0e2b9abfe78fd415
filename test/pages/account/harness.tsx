import TestUtils from '@tarojs/test-utils-react';
import { currentPageElement, mountApp, waitForPath } from '../../setup/mount-app';

export { currentPageElement, fakeApi, typeInto, waitForPath } from '../../setup/mount-app';

/** Mounts the whole app (subpackage pages included) at `startPath` and waits until that page is on screen. */
export async function mountPages(startPath: string): Promise<void> {
  await mountApp(startPath);
  await waitForPath(startPath.split('?')[0]);
}

export const tu = new TestUtils();

/** The page on screen, set as the container of `tu.queries`. */
export function page(): HTMLElement {
  const element = currentPageElement();
  tu.queries.setContainer(element);
  return element;
}

/** Waits (3 s at most) for `text` on the page on screen, looking again at whichever page is on screen each time. */
async function find(text: string): Promise<HTMLElement> {
  for (let i = 0; i < 150; i += 1) {
    try {
      page();
      const found = tu.queries.queryByText(text) as HTMLElement | null;
      if (found) return found;
    } catch {
      // no page on screen during a page switch
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`"${text}" is not on ${window.location.hash}`);
}

/** Clicks the innermost element of the page on screen whose text contains `text`. */
export async function tap(text: string): Promise<void> {
  // Lets React apply what was just typed, so the click handler sees the current form.
  await new Promise((resolve) => setTimeout(resolve, 20));
  tu.fireEvent.click(await find(text));
}

export async function see(text: string): Promise<void> {
  await find(text);
}

export function shows(text: string): boolean {
  page();
  return tu.queries.queryByText(text) !== null;
}

/** The signed-in demo admin, as the stored user. */
export const demoAdmin = {
  user_id: 1,
  email: 'admin@lensmate.test',
  nickname: 'Admin',
  avatar: '',
  is_admin: true,
  token: 'tok-admin',
};

export { ok } from '../../setup/mount-app';
/** A refusal as the server words it. */
export const refused = (status: 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503, msg: string) => ({
  status,
  msg,
  data: null,
});

/** Types into a Taro <Textarea> on H5 (a web component around a real <textarea>). */
export async function typeIntoTextarea(container: HTMLElement, name: string, value: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const field = container.querySelector<HTMLTextAreaElement>(`textarea[name="${name}"]`);
    if (field) {
      field.value = value;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No textarea named ${name}`);
}
