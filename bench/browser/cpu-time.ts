/**
 * CPU seconds used so far by the benchmark browser's processes, provided by bench/run.ts
 * (null when unavailable). During an OfflineAudioContext render the page is otherwise idle, so the
 * difference across a render is the render's CPU cost, largely independent of other load.
 */
export async function cpuSeconds(): Promise<number | null> {
  const fn = (window as unknown as { cubeBenchCpuSeconds?: () => Promise<number | null> }).cubeBenchCpuSeconds
  return fn ? fn() : null
}
