import { Type } from '@sinclair/typebox'
import { ConfigError, loadConfig } from './config'

const Schema = Type.Object({
  PORT: Type.Integer({ minimum: 1 }),
  NAME: Type.String({ minLength: 1 }),
  LEVEL: Type.String({ default: 'info' }),
})

describe('loadConfig', () => {
  it('converts strings to the schema types and applies defaults', () => {
    expect(loadConfig(Schema, { PORT: '8080', NAME: 'jobs' })).toEqual({
      PORT: 8080,
      NAME: 'jobs',
      LEVEL: 'info',
    })
  })

  it('fails fast naming every missing or invalid setting', () => {
    expect(() => loadConfig(Schema, { PORT: 'eighty' })).toThrow(ConfigError)
    try {
      loadConfig(Schema, { PORT: 'eighty' })
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/)
      expect((error as Error).message).toMatch(/NAME/)
    }
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig(Schema, { PORT: '1', NAME: 'x', LEVEL: '' }).LEVEL).toBe('info')
  })
})
