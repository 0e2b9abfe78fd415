import { createHash } from 'node:crypto';
import { deviceIdFromTraits } from '@/utils/device-id';
import { withApiBase } from '@/utils/image-url';
import { isRichTextEmpty } from '@/utils/rich-text';

describe('rich text emptiness', () => {
  it('is empty when only tags, line breaks and spaces remain', () => {
    expect(isRichTextEmpty('')).toBe(true);
    expect(isRichTextEmpty(null)).toBe(true);
    expect(isRichTextEmpty('<p><br></p>')).toBe(true);
    expect(isRichTextEmpty('<p>&nbsp;</p>\n<p> </p>')).toBe(true);
    expect(isRichTextEmpty('<div><span></span></div>')).toBe(true);
    expect(isRichTextEmpty('<style>p { color: red }</style>')).toBe(true);
  });

  it('is not empty with text', () => {
    expect(isRichTextEmpty('<p>Hello</p>')).toBe(false);
    expect(isRichTextEmpty('plain text')).toBe(false);
    expect(isRichTextEmpty('<p>&lt;</p>')).toBe(false);
    expect(isRichTextEmpty('<p>镜框</p>')).toBe(false);
  });

  it('is not empty with an image or a video and no text', () => {
    expect(isRichTextEmpty('<p><img src="a.png"></p>')).toBe(false);
    expect(isRichTextEmpty('<video src="a.mp4" controls></video>')).toBe(false);
    expect(isRichTextEmpty('<IMG SRC="a.png"/>')).toBe(false);
  });
});

describe('image URLs', () => {
  const base = 'https://api.lensmate.example';

  it('prefix relative paths with the API base and one slash', () => {
    expect(withApiBase('/uploads/a.png', base)).toBe('https://api.lensmate.example/uploads/a.png');
    expect(withApiBase('uploads/a.png', base)).toBe('https://api.lensmate.example/uploads/a.png');
    expect(withApiBase('/uploads/a.png', `${base}/`)).toBe('https://api.lensmate.example/uploads/a.png');
    expect(withApiBase('/uploads/a.png', '')).toBe('/uploads/a.png');
  });

  it('keep http, https, blob and data URLs as they are', () => {
    for (const url of [
      'http://cdn.example.com/a.png',
      'https://cdn.example.com/a.png',
      'HTTPS://CDN.EXAMPLE.COM/A.PNG',
      'blob:https://shop.example/7f1c',
      'data:image/png;base64,iVBORw0KGgo=',
    ]) {
      expect(withApiBase(url, base)).toBe(url);
    }
  });

  it('prefix names that merely start with the letters http', () => {
    expect(withApiBase('httpdocs/a.png', base)).toBe('https://api.lensmate.example/httpdocs/a.png');
  });

  it('leave an empty URL empty', () => {
    expect(withApiBase('', base)).toBe('');
  });
});

describe('device id', () => {
  const traits = { model: 'iPhone', language: 'zh-CN', screenWidth: 375, pixelRatio: 3 };

  it('is the SHA-256 hex digest of the traits', () => {
    expect(deviceIdFromTraits(traits)).toMatch(/^[0-9a-f]{64}$/);
    const expected = createHash('sha256')
      .update('language=zh-CN|model=iPhone|pixelRatio=3|screenWidth=375')
      .digest('hex');
    expect(deviceIdFromTraits(traits)).toBe(expected);
  });

  it('does not depend on the order the traits were collected in', () => {
    const reversed = Object.fromEntries(Object.entries(traits).reverse());
    expect(deviceIdFromTraits(reversed)).toBe(deviceIdFromTraits(traits));
  });

  it('changes when any trait changes', () => {
    expect(deviceIdFromTraits({ ...traits, screenWidth: 414 })).not.toBe(deviceIdFromTraits(traits));
    expect(deviceIdFromTraits({ ...traits, language: 'en' })).not.toBe(deviceIdFromTraits(traits));
  });
});

describe('device id of this browser', () => {
  it('is a stable SHA-256 digest of the traits Taro reports', () => {
    const { collectDeviceTraits, deviceId } = jest.requireActual('@/core/device') as typeof import('@/core/device');
    const traits = collectDeviceTraits();
    expect(Object.keys(traits).sort()).toEqual([
      'brand',
      'language',
      'model',
      'pixelRatio',
      'platform',
      'screenHeight',
      'screenWidth',
      'system',
      'timezoneOffset',
    ]);
    expect(deviceId()).toMatch(/^[0-9a-f]{64}$/);
    expect(deviceId()).toBe(deviceIdFromTraits(traits));
  });
});
