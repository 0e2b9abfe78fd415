import Taro from '@tarojs/taro';
import type { TryOnCanvas } from './canvas';
import type { TryOnPlatform } from './platform';

/** WeChat: the node of a <Canvas type="2d">, its own images, a temp file read back as base64, and the album. */
export const tryOnPlatform: TryOnPlatform = {
  findCanvas(id) {
    return new Promise((resolve, reject) => {
      Taro.createSelectorQuery()
        .select(`#${id}`)
        .fields({ node: true, size: true })
        .exec((results: Array<{ node?: TryOnCanvas } | null>) => {
          const node = results[0]?.node;
          if (node) resolve(node);
          else reject(new Error('no try-on canvas'));
        });
    });
  },

  newImage(canvas) {
    if (!canvas.createImage) throw new Error('the try-on canvas cannot create images');
    return canvas.createImage();
  },

  async exportPicture(canvas) {
    const { tempFilePath } = await Taro.canvasToTempFilePath({
      canvas: canvas as never,
      fileType: 'jpg',
      quality: 0.9,
    } as Taro.canvasToTempFilePath.Option);
    const base64 = Taro.getFileSystemManager().readFileSync(tempFilePath, 'base64') as string;
    return { dataUrl: `data:image/jpeg;base64,${base64}`, filePath: tempFilePath };
  },

  async keepPicture(filePath) {
    await Taro.saveImageToPhotosAlbum({ filePath });
  },
};
