import { useEffect, useState } from 'preact/hooks'
import { call, failure, type PageInfo, pageInfo } from '../api.js'
import { html } from '../html.js'
import type { ResourceRow, UserRow } from '../types.js'
import { userLabel, useUsernames } from './known.js'
import { Pager } from './pager.js'

const PER_PAGE = 50

function usePaged<T>(route: string, page: number, refresh: number) {
  const [rows, setRows] = useState<readonly T[]>([])
  const [info, setInfo] = useState<PageInfo | null>(null)
  const [error, setError] = useState<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the trigger to fetch again
  useEffect(() => {
    let live = true
    call<readonly T[]>('GET', `${route}?page=${page}&per_page=${PER_PAGE}`).then((answer) => {
      if (!live) return
      if (!answer.ok || !Array.isArray(answer.body)) {
        setError(failure(answer))
        return
      }
      setError(null)
      setRows(answer.body)
      setInfo(pageInfo(answer.headers))
    })
    return () => {
      live = false
    }
  }, [route, page, refresh])
  return { rows, info, error }
}

function kindOf(user: UserRow): string {
  if (user.service_account === true) return 'service account'
  if (user.bot === true) return 'bot'
  return user.admin === true ? 'admin' : 'user'
}

/** Users, bots and service accounts. */
export function UsersView(props: { refresh: number; showTokens: (userId: number) => void }) {
  const [page, setPage] = useState(1)
  const { rows, info, error } = usePaged<UserRow>('users', page, props.refresh)
  return html`<section aria-labelledby="users-heading">
    <h2 id="users-heading">Users</h2>
    ${error !== null && html`<p role="alert" class="error">${error}</p>`}
    <div class="table-scroll" role="region" aria-label="Users table" tabIndex="0">
    <table>
      <caption class="visually-hidden">Users, bots and service accounts</caption>
      <thead><tr><th scope="col">ID</th><th scope="col">Username</th><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Tokens</th></tr></thead>
      <tbody>
        ${rows.map(
          (user) => html`<tr key=${user.id}>
            <td>${user.id}</td><td>${user.username}</td><td>${user.name}</td><td>${kindOf(user)}</td>
            <td>${user.blocked === true ? 'blocked' : 'active'}</td>
            <td><button type="button" class="link" onClick=${() => props.showTokens(user.id)}>Tokens of ${user.username}</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    </div>
    ${rows.length === 0 && error === null && html`<p class="empty">No user yet.</p>`}
    <${Pager} label="Users" info=${info} go=${setPage} />
  </section>`
}

const ACCESS: Readonly<Record<number, string>> = {
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
}

function Members(props: {
  members: readonly { user_id: number; access_level: number }[] | undefined
  names: ReadonlyMap<number, string>
}) {
  const members = props.members ?? []
  if (members.length === 0) return html`<span class="muted">none</span>`
  return html`<ul class="inline">${members.map((m) => html`<li key=${m.user_id}>${userLabel(props.names, m.user_id)}: ${ACCESS[m.access_level] ?? m.access_level}</li>`)}</ul>`
}

/** Groups or projects with their members and bots; a bot's tokens open the tokens view filtered. */
export function ResourcesView(props: {
  kind: 'groups' | 'projects'
  refresh: number
  showResourceTokens: (kind: 'group' | 'project', id: number) => void
}) {
  const [page, setPage] = useState(1)
  const { rows, info, error } = usePaged<ResourceRow>(props.kind, page, props.refresh)
  const title = props.kind === 'groups' ? 'Groups' : 'Projects'
  const single = props.kind === 'groups' ? 'group' : 'project'
  const names = useUsernames(props.refresh)
  return html`<section aria-labelledby=${`${props.kind}-heading`}>
    <h2 id=${`${props.kind}-heading`}>${title}</h2>
    ${error !== null && html`<p role="alert" class="error">${error}</p>`}
    <div class="table-scroll" role="region" aria-label=${`${title} table`} tabIndex="0">
    <table>
      <caption class="visually-hidden">${title} with their members and bots</caption>
      <thead><tr><th scope="col">ID</th><th scope="col">Path</th><th scope="col">Name</th><th scope="col">${props.kind === 'groups' ? 'Parent' : 'Group'}</th><th scope="col">Members</th><th scope="col">Bots</th><th scope="col">Tokens</th></tr></thead>
      <tbody>
        ${rows.map(
          (row) => html`<tr key=${row.id}>
            <td>${row.id}</td><td>${row.full_path ?? row.path}</td><td>${row.name}</td>
            <td>${row.parent_id ?? row.group_id ?? html`<span class="muted">none</span>`}</td>
            <td><${Members} members=${row.members} names=${names} /></td>
            <td>${(row.bots ?? []).length === 0 ? html`<span class="muted">none</span>` : (row.bots ?? []).map((id) => userLabel(names, id)).join(', ')}</td>
            <td><button type="button" class="link" onClick=${() => props.showResourceTokens(single, row.id)}>Bot tokens of ${row.path}</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    </div>
    ${
      rows.length === 0 &&
      error === null &&
      html`<p class="empty">No ${single} yet: add ${props.kind} to the seed (<code>${props.kind}</code>, docs/testing.md) or over the control API (<code>POST /__patkit/${props.kind}</code>).</p>`
    }
    <${Pager} label=${title} info=${info} go=${setPage} />
  </section>`
}
