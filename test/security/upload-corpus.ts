/**
 * Files a shopper might upload to run script on the shop's origin: SVG with scripts in every disguise (namespaced,
 * entities, event attributes, foreignObject, animation), HTML under image names, and polyglots whose first bytes
 * are a real image signature followed by markup and script. Every `alert(` is armed by the tests that render them.
 */
export interface UploadAttack {
  name: string;
  /** The file name the upload claims. */
  fileName: string;
  bytes: Buffer;
}

const SVG_NS = 'xmlns="http://www.w3.org/2000/svg"';
const text = (value: string) => Buffer.from(value, 'utf8');
const withHead = (head: number[] | string, tail: string) =>
  Buffer.concat([typeof head === 'string' ? Buffer.from(head, 'latin1') : Buffer.from(head), text(tail)]);

const HTML = '<html><body><script>alert(1)</script><img src=x onerror=alert(2)></body></html>';

export const UPLOAD_ATTACKS: UploadAttack[] = [
  {
    name: 'svg script',
    fileName: 'a.svg',
    bytes: text(`<svg ${SVG_NS} width="40" height="40"><script>alert(1)</script></svg>`),
  },
  {
    name: 'svg namespaced x:script',
    fileName: 'b.svg',
    bytes: text(
      '<x:svg xmlns:x="http://www.w3.org/2000/svg" width="40" height="40"><x:script>alert(1)</x:script></x:svg>',
    ),
  },
  {
    name: 'svg entity-built script',
    fileName: 'c.svg',
    bytes: text(
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY s "&#60;script&#62;alert(1)&#60;/script&#62;">]><svg ${SVG_NS} width="40" height="40">&s;</svg>`,
    ),
  },
  {
    name: 'svg external entity',
    fileName: 'd.svg',
    bytes: text(
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg ${SVG_NS} width="40" height="40"><text y="20">&x;</text></svg>`,
    ),
  },
  {
    name: 'svg onload',
    fileName: 'e.svg',
    bytes: text(`<svg ${SVG_NS} width="40" height="40" onload="alert(1)"><rect width="40" height="40"/></svg>`),
  },
  {
    name: 'svg foreignObject html',
    fileName: 'f.svg',
    bytes: text(
      `<svg ${SVG_NS} width="40" height="40"><foreignObject width="40" height="40"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert(1)"></iframe><img src="x" onerror="alert(2)"/></body></foreignObject></svg>`,
    ),
  },
  {
    name: 'svg animate javascript href',
    fileName: 'g.svg',
    bytes: text(
      `<svg ${SVG_NS} xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40"><a><animate attributeName="href" values="javascript:alert(1)"/><text y="20">tap</text></a><set attributeName="onmouseover" to="alert(2)"/></svg>`,
    ),
  },
  {
    name: 'svg upper-case SCRIPT with CDATA',
    fileName: 'h.SVG',
    bytes: text(`<svg ${SVG_NS} width="40" height="40"><SCRIPT><![CDATA[alert(1)]]></SCRIPT></svg>`),
  },
  { name: 'html named .png', fileName: 'i.png', bytes: text(HTML) },
  { name: 'html named .svg', fileName: 'j.svg', bytes: text(HTML) },
  { name: 'html file', fileName: 'k.html', bytes: text(HTML) },
  {
    name: 'xhtml named .jpg',
    fileName: 'l.jpg',
    bytes: text(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">${HTML}</html>`),
  },
  { name: 'gif polyglot with script', fileName: 'm.gif', bytes: withHead('GIF89a', `/*${HTML}*/=alert(3)//`) },
  { name: 'jpeg polyglot with html', fileName: 'n.jpg', bytes: withHead([0xff, 0xd8, 0xff, 0xe0], HTML) },
  {
    name: 'png polyglot with svg',
    fileName: 'o.png',
    bytes: withHead('\x89PNG\r\n\x1a\n', `<svg ${SVG_NS} onload="alert(1)"/>${HTML}`),
  },
  { name: 'bmp polyglot with html', fileName: 'p.bmp', bytes: withHead('BM', HTML) },
  { name: 'webp polyglot with html', fileName: 'q.webp', bytes: withHead('RIFF\x00\x00\x00\x00WEBPVP8 ', HTML) },
];

/**
 * Files as an older version of the shop stored them (before uploads were drawn into PNGs), put straight into the
 * upload folders: whatever sits there must not run either.
 */
export const STORED_BEFORE: UploadAttack[] = [
  { name: 'stored svg x:script', fileName: 'old-x-script.svg', bytes: UPLOAD_ATTACKS[1].bytes },
  { name: 'stored svg entity', fileName: 'old-entity.svg', bytes: UPLOAD_ATTACKS[2].bytes },
  { name: 'stored html as png', fileName: 'old-page.png', bytes: text(HTML) },
  { name: 'stored html', fileName: 'old-page.html', bytes: text(HTML) },
];
