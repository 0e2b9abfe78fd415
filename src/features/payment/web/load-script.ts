/** A provider's browser SDK, loaded once per URL (the URL the server's configuration names). */
const loading = new Map<string, Promise<void>>();

export function loadScript(url: string): Promise<void> {
  const known = loading.get(url);
  if (known) return known;
  const loaded = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading.delete(url);
      script.remove();
      reject(new Error('The payment provider could not be reached: check the connection and try again'));
    };
    document.head.appendChild(script);
  });
  loading.set(url, loaded);
  return loaded;
}
