import { page } from '../account/harness';

/**
 * Clicks the innermost element of the page on screen whose text is exactly `text`, as a finger would (a real
 * click event that bubbles to the Taro view holding the handler), waiting up to 5 s for it to appear.
 */
export async function press(text: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < 250; i += 1) {
    const matches = Array.from(page().querySelectorAll<HTMLElement>('*')).filter(
      (element) => element.textContent === text && element.children.length === 0,
    );
    const target = matches[matches.length - 1];
    if (target) {
      target.click();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`"${text}" is not on the page: ${page().textContent?.slice(0, 300)}`);
}

/** Waits (10 s at most: the machine is shared and the server is real) for `text` as a whole element's text. */
export async function see(text: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    try {
      const found = Array.from(page().querySelectorAll<HTMLElement>('*')).some(
        (element) => element.children.length === 0 && element.textContent === text,
      );
      if (found) return;
    } catch {
      // no page on screen during a page switch
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`"${text}" is not on the page: ${page().textContent?.slice(0, 400)}`);
}
