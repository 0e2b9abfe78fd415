/**
 * Loaded into each server the messaging bench starts (`--import`, with `--expose-gc`): on the bench's 'memory'
 * message over IPC, collects garbage and answers the process's memory figures. Both servers get the same probe,
 * so what an idle connection keeps is compared, not what its authorization left for the next collection.
 */
process.on('message', (message) => {
  if (message !== 'memory') return;
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.send?.({ rss, heapUsed, external, arrayBuffers });
});
