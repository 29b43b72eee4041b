import { describe, expect, it } from 'vitest'
import { JOURNAL_EVENT_TYPES } from '../../src/fake/control/journal-params.js'
import { EVENT_TYPES } from '../../src/fake/dashboard/ui/views/journal.js'

// Issue 28: the dashboard's journal filter lacked `last_used_write_failed`, so the events of a failed
// last-used write could be read in the journal but not picked out in its filter.

describe("the dashboard journal's type filter", () => {
  it('offers every event type GET /__patkit/journal takes, last_used_write_failed included', () => {
    expect(EVENT_TYPES).toContain('last_used_write_failed')
    expect([...EVENT_TYPES].sort()).toEqual([...JOURNAL_EVENT_TYPES].sort())
  })
})
