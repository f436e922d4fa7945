// The compose stack's Kafka users: one SCRAM password per service (each authenticates as its
// own principal, docs/events.md) and the administrator's, made once. Run by the one-shot
// `kafka-users` service in docker-compose.yml (node:24-bookworm-slim, no dependencies).
//
// Files: $USERS_DIR/<user>.password, mode 0440, owned by KEY_OWNER. An existing password is
// kept: Kafka's storage learned them when it was first formatted (start-scram.sh). To change
// them, delete the volumes (`docker compose down -v`, which also deletes the data).
'use strict'

const { randomBytes } = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const dir = process.env.USERS_DIR || '/users'
const owner = process.env.KEY_OWNER || ''
const users = ['admin', ...(process.env.KAFKA_USERS || '').split(',').filter(Boolean)]

fs.mkdirSync(dir, { recursive: true })
for (const user of users) {
  const file = path.join(dir, `${user}.password`)
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim() !== '') continue
  // base64url: safe inside the JAAS quotes and on a command line.
  fs.writeFileSync(file, randomBytes(24).toString('base64url'), { mode: 0o440 })
  if (owner) {
    const [uid, gid] = owner.split(':').map(Number)
    fs.chownSync(file, uid, gid)
  }
  console.log(`made the Kafka password of ${user}`)
}
