import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { checkUsername } from '../../src/domain/username.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'

// GitLab's username rules (issue 28): a username is its user namespace's path. Sources, gitlabhq:
// app/models/namespace.rb (2008eb99: presence, length max URL_MAX_LENGTH 255, oci_repository_path_regex,
// namespace_path, min 2), lib/gitlab/regex.rb (5d1088c2: oci_repository_path_regex and message),
// app/validators/namespace_path_validator.rb (5c583c8e), lib/gitlab/path_regex.rb (03b596d4:
// namespace_format_regex, namespace_format_message, TOP_LEVEL_ROUTES).

const OCI =
  "Username can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'."
const NAMESPACE =
  "Username can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."

const reason = (username: string) => checkUsername(username)._unsafeUnwrapErr().reason

describe('checkUsername', () => {
  it.each([
    'alice',
    'Alice.Smith',
    'blocked-bob',
    'project_7_bot_0f3a',
    'service_account_group_1_9c2e',
    'ab',
    'a'.repeat(255),
  ])('accepts %j', (username) => {
    expect(checkUsername(username)._unsafeUnwrap()).toBe(username)
  })

  it.each([
    [' bob', `${OCI} and ${NAMESPACE}`],
    ['root\u200b', `${OCI} and ${NAMESPACE}`],
    ['x/y', `${OCI} and ${NAMESPACE}`],
    ['<img src=x>', `${OCI} and ${NAMESPACE}`],
    ['-bob', `${OCI} and ${NAMESPACE}`],
    ['bob.', `${OCI} and ${NAMESPACE}`],
    ['bob.git', NAMESPACE],
    ['bob.atom', NAMESPACE],
    ['_bob', OCI],
    ['a__b', OCI],
    ['a'.repeat(256), 'Username is too long (maximum is 255 characters)'],
    ['a', 'Username is too short (minimum is 2 characters)'],
    ['', "Username can't be blank"],
    ['admin', 'Username admin is a reserved name'],
    ['API', 'Username API is a reserved name'],
    ['robots.txt', 'Username robots.txt is a reserved name'],
  ])('refuses %j with GitLab’s message', (username, message) => {
    expect(checkUsername(username)._unsafeUnwrapErr()).toEqual({ type: 'bad_request', reason: message })
  })

  it('joins three broken rules as Rails’ to_sentence does', () => {
    expect(reason(` ${'a'.repeat(300)}`)).toBe(
      `Username is too long (maximum is 255 characters), ${OCI}, and ${NAMESPACE}`,
    )
  })

  it('accepts only ASCII letters, digits and single separators between them, 2 to 255 long', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'binary' }), (username) => {
        const accepted = checkUsername(username).isOk()
        const shaped = /^[a-zA-Z0-9]+(?:[._-][a-zA-Z0-9]+)*$/.test(username)
        if (accepted) {
          expect(shaped).toBe(true)
          expect(username.length).toBeGreaterThanOrEqual(2)
          expect(username.length).toBeLessThanOrEqual(255)
          expect(/\.(git|atom)$/.test(username)).toBe(false)
        }
      }),
      { numRuns: 500 },
    )
    // 3 s alone on 2 cores, over 20 s in a loaded full run: a budget, not a timing assertion.
  }, 60_000)
})

describe('the authority’s putUser', () => {
  it('refuses a username GitLab would refuse before the store, and stores a valid one', async () => {
    const store = memoryStore()
    const authority = createAuthority({
      store,
      pepper: 'username-pepper',
      clock: manualClock(new Date('2026-06-15T12:00:00.000Z')),
      random: seededRandom(3),
    })
    const refused = await authority.users.put({ id: 2, username: ' bob', admin: false, blocked: false })
    expect(refused._unsafeUnwrapErr()).toEqual({ type: 'bad_request', reason: `${OCI} and ${NAMESPACE}` })
    expect((await store.findUser(2))._unsafeUnwrap()).toBeNull()
    const long = await authority.users.put({ id: 3, username: 'b'.repeat(300), admin: false, blocked: false })
    expect(long._unsafeUnwrapErr().type).toBe('bad_request')
    expect((await authority.users.put({ id: 2, username: 'bob', admin: false, blocked: false })).isOk()).toBe(
      true,
    )
  })
})
