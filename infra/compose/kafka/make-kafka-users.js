// The compose stack's Kafka users: one SCRAM password per service (each authenticates as its
// own principal, docs/events.md) and the administrator's, made once. Run by the one-shot
// `kafka-users` service in docker-compose.yml (node:24-bookworm-slim, no dependencies).
//
// Files: $USERS_DIR/<user>.password, mode 0440, owned by KEY_OWNER: all of them, for the
// broker, which formats its storage with them. With PER_USER_DIR, each password is also
// copied alone to $PER_USER_DIR/<user>/<user>.password (a volume of its own per user, which
// only that user's container mounts). An existing password is kept: Kafka's storage learned
// them when it was first formatted (start-scram.sh). To change them, delete the volumes
// (`docker compose down -v`, which also deletes the data).
'use strict'

const { randomBytes } = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const dir = process.env.USERS_DIR || '/users'
const owner = process.env.KEY_OWNER || ''
const perUserDir = process.env.PER_USER_DIR || ''
const users = ['admin', ...(process.env.KAFKA_USERS || '').split(',').filter(Boolean)]

fs.mkdirSync(dir, { recursive: true })
function writeSecret(file, value) {
  fs.writeFileSync(file, value, { mode: 0o440 })
  fs.chmodSync(file, 0o440) // an existing file keeps its mode through writeFileSync
  if (owner) {
    const [uid, gid] = owner.split(':').map(Number)
    fs.chownSync(file, uid, gid)
  }
}

for (const user of users) {
  const file = path.join(dir, `${user}.password`)
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : ''
  // base64url: safe inside the JAAS quotes and on a command line.
  const password = existing || randomBytes(24).toString('base64url')
  if (!existing) {
    writeSecret(file, password)
    console.log(`made the Kafka password of ${user}`)
  }
  if (perUserDir) {
    const own = path.join(perUserDir, user)
    fs.mkdirSync(own, { recursive: true })
    const copy = path.join(own, `${user}.password`)
    if (fs.existsSync(copy)) fs.rmSync(copy, { force: true })
    writeSecret(copy, password)
  }
}
