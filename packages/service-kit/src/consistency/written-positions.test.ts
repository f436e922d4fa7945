import { createServiceApp } from '../create-app'
import { recordWrittenPosition } from './write-recorder'
import { MAX_READ_AFTER_POSITIONS, formatPosition, parsePositions } from './written-positions'

describe('written positions', () => {
  it('reads back what it writes, of one kind, without duplicates', () => {
    const created = formatPosition({ kind: 'post', id: '65f0a1b2c3d4e5f6a7b8c9d0', version: 1700 })
    const deleted = formatPosition({ kind: 'post', id: 'abc', version: 'gone' })
    expect([created, deleted]).toEqual(['post:65f0a1b2c3d4e5f6a7b8c9d0@1700', 'post:abc@-'])
    expect(parsePositions([`${created}, ${deleted}`, `${created},user:u1@3`], 'post')).toEqual([
      { kind: 'post', id: '65f0a1b2c3d4e5f6a7b8c9d0', version: 1700 },
      { kind: 'post', id: 'abc', version: 'gone' },
    ])
    expect(parsePositions('user:u1@3', 'user')).toEqual([{ kind: 'user', id: 'u1', version: 3 }])
  })

  it('ignores what is not a position and reads at most the bound', () => {
    expect(parsePositions('post:a, post:$ne@1, post:a@1e3, post:a@-1, , post', 'post')).toEqual([])
    expect(parsePositions(undefined, 'post')).toEqual([])
    const many = Array.from({ length: 500 }, (_, i) => `post:p${i}@${i}`).join(',')
    expect(parsePositions(many, 'post')).toHaveLength(MAX_READ_AFTER_POSITIONS)
    expect(() => formatPosition({ kind: 'post', id: 'a,b', version: 1 })).toThrow()
  })
})

describe('the write recorder', () => {
  it('answers a write with what it recorded, after awaits; reads and writes that record nothing carry no header', async () => {
    const app = await createServiceApp({ serviceName: 'test', logLevel: 'silent' })
    app.post('/hide', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      recordWrittenPosition({ kind: 'post', id: 'p1', version: 10 })
      await Promise.resolve()
      recordWrittenPosition({ kind: 'post', id: 'p2', version: 'gone' }, true)
      return { ok: true }
    })
    app.post('/nothing', async () => ({ ok: true }))
    app.get('/read', async () => {
      // Outside a write's store: a no-op, never an error.
      recordWrittenPosition({ kind: 'post', id: 'p3', version: 1 })
      return { ok: true }
    })
    await app.ready()
    try {
      const hide = await app.inject({ method: 'POST', url: '/hide', payload: {} })
      expect(hide.headers['x-read-after']).toBe('post:p1@10, post:p2@-')
      expect(hide.headers['x-read-after-everyone']).toBe('post:p2@-')
      const nothing = await app.inject({ method: 'POST', url: '/nothing', payload: {} })
      expect(nothing.headers['x-read-after']).toBeUndefined()
      const read = await app.inject({ method: 'GET', url: '/read' })
      expect(read.headers['x-read-after']).toBeUndefined()
      // Two writes at once keep their own positions.
      const [a, b] = await Promise.all([
        app.inject({ method: 'POST', url: '/hide', payload: {} }),
        app.inject({ method: 'POST', url: '/nothing', payload: {} }),
      ])
      expect(a.headers['x-read-after']).toBe('post:p1@10, post:p2@-')
      expect(b.headers['x-read-after']).toBeUndefined()
    } finally {
      await app.close()
    }
  })
})
