/** How late an interval timer of `intervalMs` fires, each time: the time the event loop was blocked. */
export function watchEventLoop(intervalMs = 5) {
  const delays: number[] = [];
  let expected = performance.now() + intervalMs;
  const timer = setInterval(() => {
    const now = performance.now();
    delays.push(now - expected);
    expected = now + intervalMs;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return delays;
    },
  };
}
