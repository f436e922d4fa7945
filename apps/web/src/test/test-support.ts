/**
 * Test fakes and helpers live under src/test, where the lint and the build leave them out of
 * the app. A source that is not a test yet reaches for Testing Library, the shared test
 * helpers or jest is one of them, wherever it stands.
 */
const TEST_SUPPORT = [/@testing-library\//, /from '@\/test\//, /\bjest\.\w+\(/, /\bafterEach\(/]

export function looksLikeTestSupport(file: string, text: string): boolean {
  if (/\.test\.tsx?$/.test(file)) return false
  return TEST_SUPPORT.some((pattern) => pattern.test(text))
}
