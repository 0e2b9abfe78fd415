import { sql } from 'kysely';
import { ADA, BEN, type TestServer, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';

/** The defaults a production server runs with: 10 attempts per 15 minutes. */
const LIMIT = 10;
const WAIT_MESSAGE = 'Too many attempts, try again in 15 minutes';
const BURST = 25;

async function verificationCodes(server: TestServer): Promise<number> {
  const result = await sql<{ n: number }>`select count(*) as n from verification_codes`.execute(server.handle.db);
  return Number(result.rows[0].n);
}

describe('rate limits under a burst', () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startServer('sqlite');
  });
  afterEach(async () => {
    await server?.close();
  });

  test('a burst of logins from one client gets 429 with the wait after the limit', async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, index) =>
        server.call('POST', '/api/auth/login', { email: `guess${index}@lensmate.test`, password: 'Wrong#2026pass' }),
      ),
    );
    const limited = answers.filter((answer) => answer.http === 429);
    expect(limited).toHaveLength(BURST - LIMIT);
    for (const answer of limited) expect(answer.body).toEqual({ status: 429, msg: WAIT_MESSAGE, data: null });
    expect(answers.filter((answer) => answer.http === 400)).toHaveLength(LIMIT);
    // Even the right password waits once the client is over its limit.
    const right = await server.call('POST', '/api/auth/login', { email: ADA.email, password: ADA.password });
    expect([right.http, right.body.msg]).toEqual([429, WAIT_MESSAGE]);
    recordReliability({ suite: 'rate-limit-burst', payloads: BURST + 1, limited: limited.length + 1 });
  });

  test('a burst of forget_password gets 429 after the limit, and no code is issued past it', async () => {
    const before = await verificationCodes(server);
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => server.call('POST', '/api/auth/forget_password', { email: BEN.email })),
    );
    const limited = answers.filter((answer) => answer.http === 429);
    expect(limited).toHaveLength(BURST - LIMIT);
    for (const answer of limited) expect(answer.body).toEqual({ status: 429, msg: WAIT_MESSAGE, data: null });
    const sent = answers.filter((answer) => answer.http === 200).length;
    expect(sent).toBe(LIMIT);
    expect((await verificationCodes(server)) - before).toBe(sent);
    recordReliability({ suite: 'rate-limit-burst', payloads: BURST, limited: limited.length });
  });
});
