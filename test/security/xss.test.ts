import { sql } from 'kysely';
import { ADA, ADMIN, type TestServer, startServer } from '../server/helpers';

/** Stored-XSS payloads: script tags, event handlers, javascript: URLs, SVG with scripts, CSS expressions. */
const CORPUS = [
  '<script>alert("xss")</script>',
  '<SCRIPT SRC=//evil.test/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<p onclick="alert(1)" onmouseover=alert(2)>hover</p>',
  '<body onload=alert(1)>',
  '<a href="javascript:alert(1)">link</a>',
  '<a href="JaVaScRiPt:alert(1)">link</a>',
  '<a href="java&#x09;script:alert(1)">tab</a>',
  '<a href=" javascript:alert(1)">space</a>',
  '<img src="javascript:alert(1)">',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<svg onload=alert(1)><script>alert(2)</script></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<p style="width: expression(alert(1))">css</p>',
  '<p style="background:url(javascript:alert(1))">css</p>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<div style="color: red; behavior: url(x.htc)">b</div>',
  '<video poster="javascript:alert(1)" src=x onerror=alert(1)></video>',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<details open ontoggle=alert(1)>',
  '"><img src=x onerror=alert(1)>',
];

/** What must never survive in stored HTML. */
const DANGEROUS = [
  /<\s*script/i,
  /<\s*(iframe|object|embed|svg|math|style|meta|base|form|body)\b/i,
  /\son[a-z]+\s*=/i,
  /(javascript|vbscript)\s*:/i,
  /data:text\/html/i,
  /expression\s*\(/i,
  /behavior\s*:/i,
];

function dangers(html: string): string[] {
  return DANGEROUS.filter((pattern) => pattern.test(html)).map(String);
}

describe('stored XSS: what the server keeps is safe to render', () => {
  let server: TestServer;
  let admin: string;
  let ada: string;

  beforeAll(async () => {
    server = await startServer('sqlite');
    [admin, ada] = await Promise.all([
      server.login(ADMIN.email, ADMIN.password),
      server.login(ADA.email, ADA.password),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('every payload written through insert_article and update_article is stored sanitized', async () => {
    const found: string[] = [];
    for (const [index, payload] of CORPUS.entries()) {
      const draft = {
        title: `XSS ${index}`,
        cover: '/uploads/a.png',
        imgsUrl: ['/uploads/b.png'],
        content: `<p>Safe text ${index}</p>${payload}`,
      };
      const inserted = await server.call('POST', '/api/article/insert_article', draft, admin);
      expect(inserted.body.status).toBe(200);
      const articleId = inserted.body.data.article_id;
      const updated = await server.call(
        'POST',
        '/api/article/update_article',
        { ...draft, article_id: articleId, content: `${payload}<p>Updated ${index}</p>` },
        admin,
      );
      expect(updated.body.status).toBe(200);
      const read = await server.call('GET', `/api/article/get_article?id=${articleId}`);
      const stored = await sql<{ content: string }>`select content from articles where id = ${articleId}`.execute(
        server.handle.db,
      );
      for (const html of [inserted.body.data.content, read.body.data.content, stored.rows[0].content]) {
        const hits = dangers(html);
        if (hits.length > 0) found.push(`${payload} -> ${html} (${hits.join(', ')})`);
      }
      // The update is what readers get (an unclosed payload tag may swallow the text after it, never run it).
      expect(read.body.data.content).toBe(updated.body.data.content);
    }
    console.log(
      `Stored XSS: ${CORPUS.length} payloads through insert_article and update_article, unsafe ${found.length}`,
    );
    expect(found).toEqual([]);
  });

  test('every payload written as a comment is stored as plain text without markup', async () => {
    const article = (await server.call('POST', '/api/article/get_article_list', { page_size: 1 })).body.data.list[0];
    const found: string[] = [];
    for (const payload of CORPUS) {
      const answer = await server.call(
        'POST',
        '/api/social/add_comment',
        { kind: 'article', target_id: article.article_id, content: `Nice ${payload}` },
        ada,
      );
      expect(answer.body.status).toBe(200);
      const content: string = answer.body.data.content;
      if (/<[a-z!/]/i.test(content) || /\son[a-z]+\s*=/i.test(content)) found.push(`${payload} -> ${content}`);
    }
    const listed = (
      await server.call('POST', '/api/social/comments', { kind: 'article', target_id: article.article_id }, ada)
    ).body.data;
    const contents: string[] = (listed.list ?? listed).map((comment: { content: string }) => comment.content);
    expect(contents.filter((content) => /<[a-z!/]/i.test(content))).toEqual([]);
    console.log(`Stored XSS: ${CORPUS.length} payloads through add_comment, with markup ${found.length}`);
    expect(found).toEqual([]);
  });
});
