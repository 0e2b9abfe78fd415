import { type Server, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free loopback port and answers the base URL. */
export function listen(http: Server): Promise<string> {
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(http.address() as AddressInfo).port}`)),
  );
}

/**
 * The storage endpoint as an H5 page reaches it: a real bucket answers CORS preflights; the
 * messaging server's built-in one does not, so this front adds only those headers.
 */
export function storageFront(target: () => string): Server {
  return createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    response.setHeader('Access-Control-Allow-Headers', '*');
    response.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    if (request.method === 'OPTIONS') {
      response.statusCode = 204;
      response.end();
      return;
    }
    const upstream = new URL(request.url ?? '/', target());
    const forward = httpRequest(upstream, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(forward);
  });
}
