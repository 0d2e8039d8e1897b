// How fast this core runs right now: the CPU milliseconds a fixed piece of
// work takes (JSON round trips of a 2,000-item object into a Map), ~420–510
// ms on the machine docs/performance.md measures on. Run it pinned to the
// server's core before and after a side-by-side run
// (`taskset -c 0 node --import tsx scripts/core-speed.ts`): on a virtual
// machine the host's load can slow the core by half or more, which then
// shows up in one side of the comparison only.
const sample = { items: Array.from({ length: 2000 }, (_, i) => ({ id: i, slug: `post-${i}`, title: 'Hello world '.repeat(4), tags: ['a', 'b', 'c'], n: i * 1.5 })) };

function roundTrip(): Map<string, unknown> {
  const bySlug = new Map<string, unknown>();
  for (const item of (JSON.parse(JSON.stringify(sample)) as typeof sample).items) bySlug.set(item.slug, item);
  return bySlug;
}

for (let i = 0; i < 20; i += 1) roundTrip();
const before = process.cpuUsage();
for (let i = 0; i < 150; i += 1) roundTrip();
const used = process.cpuUsage(before);
console.log(Math.round((used.user + used.system) / 1000));
