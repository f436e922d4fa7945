import { hash, verify, type Algorithm } from '@node-rs/argon2'

// Algorithm.Argon2id; the package exports a const enum, which isolatedModules cannot read.
const ARGON2ID = 2 as Algorithm

/** argon2id with OWASP's first recommended profile: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const passwordHasher = {
  hash: (password: string) => hash(password, OPTIONS),
  verify: (hashed: string, password: string) => verify(hashed, password),
}
export type PasswordHasher = typeof passwordHasher
