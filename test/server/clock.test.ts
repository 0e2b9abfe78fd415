import { monotonicClock } from '../../server/clock';

describe('the server clock', () => {
  it('follows Date.now and never repeats or goes back, even many times in one millisecond', () => {
    const now = monotonicClock();
    const before = Date.now();
    const times = Array.from({ length: 5000 }, () => now());
    for (let i = 1; i < times.length; i += 1) expect(times[i]).toBeGreaterThan(times[i - 1]);
    expect(times[0]).toBeGreaterThanOrEqual(before);
    // It runs ahead of Date.now only by the calls made within the same milliseconds.
    expect(times.at(-1)! - Date.now()).toBeLessThanOrEqual(times.length);
  });
});
