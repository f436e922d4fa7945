// Preloaded into a service the benchmarks start (`node -r scripts/bench/heap-report.cjs`):
// on SIGUSR2 it writes, to the file HEAP_REPORT_FILE names, where the process's memory is:
// process.memoryUsage() (rss, heap used and total, external, array buffers) and V8's heap
// spaces (new space is the young generation; its size is what `--max-semi-space-size`
// bounds). Only the benchmarks load it; the service does not know of it.
'use strict'
const { writeFileSync } = require('node:fs')
const v8 = require('node:v8')

const file = process.env.HEAP_REPORT_FILE
if (file) {
  process.on('SIGUSR2', () => {
    const spaces = {}
    for (const space of v8.getHeapSpaceStatistics())
      spaces[space.space_name] = { size: space.space_size, used: space.space_used_size }
    const heap = v8.getHeapStatistics()
    writeFileSync(
      file,
      JSON.stringify({
        memory: process.memoryUsage(),
        spaces,
        heapLimit: heap.heap_size_limit,
        mallocedMemory: heap.malloced_memory,
      }),
    )
  })
}
