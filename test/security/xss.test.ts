import { sql } from 'kysely';
import { ADA, ADMIN, type TestServer, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';
import { CORPUS } from './xss-corpus';

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
    recordReliability({ suite: 'xss-stored-server', payloads: CORPUS.length * 2, unsafe: found.length });
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
    recordReliability({ suite: 'xss-stored-server', payloads: CORPUS.length, unsafe: found.length });
    expect(found).toEqual([]);
  });
});
