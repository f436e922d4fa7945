// Writes this package's totals to $TEST_SUMMARY_DIR/<package>.json when the variable is set
// (scripts/test.sh sets it and adds the files up into one closing line for the repository).
// A package whose files run in several jest runs names each run with TEST_SUMMARY_PART, so
// one run's totals do not overwrite another's.
const { mkdirSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir
  }

  onRunComplete(_contexts, results) {
    const dir = process.env.TEST_SUMMARY_DIR
    if (!dir) return
    let name = 'unknown'
    try {
      name = require(join(this.rootDir, 'package.json')).name
    } catch {}
    if (process.env.TEST_SUMMARY_PART) name = `${name} (${process.env.TEST_SUMMARY_PART})`
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      join(dir, `${name.replace(/\W+/g, '_')}.json`),
      JSON.stringify({
        package: name,
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
        suites: results.numTotalTestSuites,
      }),
    )
  }
}
module.exports = SummaryReporter
