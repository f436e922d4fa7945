import { timingSafeEqual } from 'node:crypto'

/** Constant-time comparison of two secrets or MACs. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
