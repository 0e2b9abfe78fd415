const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COLOR_TYPE_GRAY_ALPHA = 4;
const COLOR_TYPE_RGB_ALPHA = 6;

function chunkType(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/**
 * True when a PNG can hold transparent pixels: an alpha channel in IHDR (colour type 4 or 6) or a tRNS
 * chunk before the image data. Throws for bytes that are not a PNG, so a JPEG is never reported opaque
 * by mistake.
 */
export function pngHasTransparency(bytes: Uint8Array): boolean {
  if (!isPng(bytes)) {
    throw new Error('Not a PNG image');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = PNG_SIGNATURE.length;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = chunkType(bytes, offset + 4);
    const data = offset + 8;
    if (type === 'IHDR' && data + 9 < bytes.length) {
      const colorType = bytes[data + 9];
      if (colorType === COLOR_TYPE_GRAY_ALPHA || colorType === COLOR_TYPE_RGB_ALPHA) return true;
    }
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset = data + length + 4;
  }
  return false;
}
