import { useEffect, useState } from 'preact/hooks'
import { call } from '../api.js'
import type { JournalEntry, UserRow } from '../types.js'

// What the views show beside ids: usernames (from GET /users, its first pages) and the tokens that
// reuse detection revoked (from the journal's reuse_detected events, as the family chain reads them).

const PAGES = 5

/** Usernames by user id, read again on each refresh; an id not in it is shown as `user <id>`. */
export function useUsernames(refresh: number): ReadonlyMap<number, string> {
  const [names, setNames] = useState<ReadonlyMap<number, string>>(new Map())
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the trigger to fetch again
  useEffect(() => {
    let live = true
    const found = new Map<number, string>()
    const read = async () => {
      for (let page = 1; page <= PAGES; page++) {
        const answer = await call<UserRow[]>('GET', `users?page=${page}&per_page=100`)
        if (!answer.ok || !Array.isArray(answer.body)) break
        for (const user of answer.body) found.set(user.id, user.username)
        if (answer.body.length < 100) break
      }
      if (live) setNames(found)
    }
    read()
    return () => {
      live = false
    }
  }, [refresh])
  return names
}

export function userLabel(names: ReadonlyMap<number, string>, id: number | null | undefined): string {
  if (id === null || id === undefined) return ''
  const name = names.get(id)
  return name === undefined ? `user ${id}` : `${name} (${id})`
}

/** The ids of the tokens reuse detection revoked, as the journal holds them. */
export function useReuseRevoked(refresh: number): ReadonlySet<number> {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set())
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the trigger to fetch again
  useEffect(() => {
    let live = true
    call<{ entries: JournalEntry[] }>('GET', 'journal?kind=event&type=reuse_detected').then((answer) => {
      if (!live || !answer.ok) return
      const found = new Set<number>()
      for (const entry of answer.body.entries) {
        const revoked = (entry.event?.['revoked'] as { id?: unknown }[] | undefined) ?? []
        for (const token of revoked) if (typeof token.id === 'number') found.add(token.id)
      }
      setIds(found)
    })
    return () => {
      live = false
    }
  }, [refresh])
  return ids
}
