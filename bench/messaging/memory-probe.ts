import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * Loaded into each server the messaging bench starts (`--import`, with `--expose-gc`): on the bench's 'memory'
 * message over IPC, collects garbage and answers the process's memory figures. Both servers get the same probe,
 * so what an idle connection keeps is compared, not what its authorization left for the next collection.
 * With BENCH_PROFILE set, the bench also sends `{ profile: 'start' }` before the measured channel messages and
 * `{ profile: <file> }` after them: the server's CPU profile of that phase is written there (.cpuprofile).
 */
let profiler: Session | null = null;

process.on('message', async (message: unknown) => {
  if (message === 'memory') {
    const collect = (globalThis as { gc?: () => void }).gc;
    collect?.();
    collect?.();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    process.send?.({ rss, heapUsed, external, arrayBuffers });
    return;
  }
  const profile = (message as { profile?: unknown } | null)?.profile;
  if (profile === 'start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
    await profiler.post('Profiler.start');
    process.send?.({ profiling: true });
  } else if (typeof profile === 'string' && profiler) {
    const { profile: taken } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    profiler = null;
    writeFileSync(profile, JSON.stringify(taken));
    process.send?.({ profiling: false });
  }
});
