import { hash, verify, type Algorithm } from '@node-rs/argon2'

// Algorithm.Argon2id; the package exports a const enum, which isolatedModules cannot read.
const ARGON2ID = 2 as Algorithm

/** argon2id with OWASP's first recommended profile: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

// A hash of a random password with the same parameters: a login for an unknown address
// verifies against it, so it costs as much time as a wrong password for a real account.
let dummyHash: Promise<string> | null = null

export const passwordHasher = {
  hash: (password: string) => hash(password, ARGON2_OPTIONS),
  verify: (hashed: string, password: string) => verify(hashed, password),
  /** Spends one verification's time and answers false (uniform login timing). */
  async verifyNothing(password: string): Promise<false> {
    dummyHash ??= hash(`no-account-${Math.random()}`, ARGON2_OPTIONS)
    await verify(await dummyHash, password)
    return false
  },
}
export type PasswordHasher = typeof passwordHasher
