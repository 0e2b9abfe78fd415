import type { Redis } from 'ioredis';

/**
 * The Redis streams adapter reads its stream with `XREAD BLOCK 100 ... $` until it has read one entry,
 * and `$` means "what arrives from now on". An entry another process adds between two of those reads
 * (the time it takes this process to see one read come back empty and send the next, long when the
 * machine is busy) is never read. The first entry every process adds is its initial heartbeat, so a
 * process started beside a busy one could stay unknown to it until the next heartbeat, 5 s later:
 * presence read there missed its members and room broadcasts missed its sockets.
 *
 * This hands the adapter a client on which `$` is the last entry the stream held when this process
 * started (asked for before the adapter adds anything), so the first read takes every entry added
 * since, whenever it is sent. If that id cannot be read the adapter keeps `$`, as before.
 */
export function readingFromStart(redis: Redis, stream: string): Redis {
  const start: Promise<string> = redis.xrevrange(stream, '+', '-', 'COUNT', 1).then(
    (entries) => entries[0]?.[0] ?? '0-0',
    () => '$',
  );
  const xread = async (...args: (string | number)[]) => {
    const from = await start;
    return redis.xread(...(args.map((arg) => (arg === '$' ? from : arg)) as Parameters<Redis['xread']>));
  };
  return new Proxy(redis, {
    get(target, prop) {
      if (prop === 'xread') return xread;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
