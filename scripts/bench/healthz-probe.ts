// GET `url` every 100 ms for `seconds`, in a process of its own (so the load generator's work
// does not delay it), and print the latencies in ms as one JSON array.
const [url, seconds] = [process.argv[2]!, Number(process.argv[3] ?? 5)];
const times: number[] = [];
const end = performance.now() + seconds * 1000;
while (performance.now() < end) {
  const started = performance.now();
  const tick = new Promise((resolve) => setTimeout(resolve, 100));
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    times.push(performance.now() - started);
  } catch {
    times.push(30_000);
  }
  await tick;
}
console.log(JSON.stringify(times));
