import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { sqliteStatementCache } from '../../src/sql/index.js'

/** A real database whose `prepare` calls are counted (the cache is what is under test, not SQLite). */
function counted() {
  const database = new Database(':memory:')
  const prepared: string[] = []
  const original = database.prepare.bind(database)
  database.prepare = ((sql: string) => {
    prepared.push(sql)
    return original(sql)
  }) as typeof database.prepare
  return { database, prepared }
}

describe('sqliteStatementCache', () => {
  it('prepares each SQL text once and returns the same statement afterwards', () => {
    const { database, prepared } = counted()
    const cached = sqliteStatementCache(database)
    const a = cached.prepare('select 1 as x')
    const b = cached.prepare('select 1 as x')
    expect(b).toBe(a)
    expect(prepared).toEqual(['select 1 as x'])
    expect(cached.prepare('select 2 as x')).not.toBe(a)
  })

  it('keeps at most limit texts, dropping the oldest first', () => {
    const { database, prepared } = counted()
    const cached = sqliteStatementCache(database, 2)
    cached.prepare('select 1')
    cached.prepare('select 2')
    cached.prepare('select 3')
    cached.prepare('select 2')
    cached.prepare('select 1')
    expect(prepared).toEqual(['select 1', 'select 2', 'select 3', 'select 1'])
  })

  it('leaves every other method working on the real database', () => {
    const cached = sqliteStatementCache(new Database(':memory:'))
    cached.exec('create table t (x integer)')
    cached.prepare('insert into t values (?)').run(5)
    expect(cached.prepare('select x from t').get()).toEqual({ x: 5 })
    expect(cached.inTransaction).toBe(false)
    cached.close()
    expect(cached.open).toBe(false)
  })

  it('refuses a limit that is not a positive integer', () => {
    expect(() => sqliteStatementCache(new Database(':memory:'), 0)).toThrow(RangeError)
  })
})
