import type { TryOnCanvas } from './canvas';
import type { TryOnPlatform } from './platform';

/** The browser: the page's <canvas>, images of the document, data URLs, and a download for saving. */
export const tryOnPlatform: TryOnPlatform = {
  findCanvas(id) {
    const node = document.querySelector<HTMLCanvasElement>(`#${id} canvas, canvas[canvas-id="${id}"]`);
    return node ? Promise.resolve(node as unknown as TryOnCanvas) : Promise.reject(new Error('no try-on canvas'));
  },

  newImage: () => new Image(),

  async exportPicture(canvas) {
    if (!canvas.toDataURL) throw new Error('the try-on canvas cannot export a picture');
    const dataUrl = canvas.toDataURL('image/jpeg', 0.9);
    return { dataUrl, filePath: dataUrl };
  },

  // H5 has no album: the picture downloads as a file.
  async keepPicture(filePath, fileName) {
    const link = document.createElement('a');
    link.href = filePath;
    link.download = fileName;
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  },
};
