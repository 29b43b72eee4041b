import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { accessTokenPayload, hookTimestamp } from '../../src/webhooks/access-token-payload.js'

// Golden payloads for GitLab's "Resource Access Token Hook": the shape is
// lib/gitlab/data_builder/resource_access_token.rb, the project's attributes app/models/project.rb
// #hook_attrs(backward: true), the token's lib/gitlab/hook_data/resource_access_token_builder.rb
// (SAFE_HOOK_ATTRIBUTES), the formats the docs' example ("2024-01-24 16:27:40 UTC", "2024-01-26").

const token = {
  id: 25,
  name: 'acme',
  userId: 90,
  createdAt: new Date('2024-01-24T16:27:40.123Z'),
  expiresAt: '2024-01-26',
  lastUsedAt: null,
}

describe('accessTokenPayload', () => {
  it('a project token: GitLab key order and formats', () => {
    const payload = accessTokenPayload({
      baseUrl: 'http://127.0.0.1:8080/',
      resource: {
        kind: 'project',
        id: 7,
        name: 'Example',
        fullPath: 'gitlab-org/example',
        namespaceName: 'Gitlab Org',
        visibility: 'internal',
        defaultBranch: 'main',
      },
      token,
      interval: 'seven_days',
    })
    expect(JSON.stringify(payload)).toBe(
      JSON.stringify({
        object_kind: 'access_token',
        project: {
          id: 7,
          name: 'Example',
          description: null,
          web_url: 'http://127.0.0.1:8080/gitlab-org/example',
          avatar_url: null,
          git_ssh_url: 'git@127.0.0.1:gitlab-org/example.git',
          git_http_url: 'http://127.0.0.1:8080/gitlab-org/example.git',
          namespace: 'Gitlab Org',
          visibility_level: 10,
          path_with_namespace: 'gitlab-org/example',
          default_branch: 'main',
          ci_config_path: null,
          homepage: 'http://127.0.0.1:8080/gitlab-org/example',
          url: 'git@127.0.0.1:gitlab-org/example.git',
          ssh_url: 'git@127.0.0.1:gitlab-org/example.git',
          http_url: 'http://127.0.0.1:8080/gitlab-org/example.git',
        },
        object_attributes: {
          user_id: 90,
          created_at: '2024-01-24 16:27:40 UTC',
          id: 25,
          name: 'acme',
          expires_at: '2024-01-26',
          last_used_at: null,
        },
        event_name: 'expiring_access_token',
        interval: 'seven_days',
      }),
    )
  })

  it('a group token carries group_name, group_path, group_id and full_path, and last_used_at', () => {
    const payload = accessTokenPayload({
      baseUrl: 'https://gitlab.example.com',
      resource: { kind: 'group', id: 35, name: 'Twitter', path: 'twitter', fullPath: 'social/twitter' },
      token: { ...token, lastUsedAt: new Date('2024-01-25T09:05:03Z') },
      interval: 'sixty_days',
    })
    expect(payload).toEqual({
      object_kind: 'access_token',
      group: { group_name: 'Twitter', group_path: 'twitter', group_id: 35, full_path: 'social/twitter' },
      object_attributes: {
        user_id: 90,
        created_at: '2024-01-24 16:27:40 UTC',
        id: 25,
        name: 'acme',
        expires_at: '2024-01-26',
        last_used_at: '2024-01-25 09:05:03 UTC',
      },
      event_name: 'expiring_access_token',
      interval: 'sixty_days',
    })
    expect('project' in payload).toBe(false)
  })

  it('hookTimestamp is the UTC instant to the second, in the docs format', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01Z'), max: new Date('9999-12-31Z'), noInvalidDate: true }),
        (d) => {
          const text = hookTimestamp(d)
          expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/)
          expect(new Date(text.replace(' UTC', 'Z').replace(' ', 'T')).getTime()).toBe(
            Math.floor(d.getTime() / 1000) * 1000,
          )
        },
      ),
    )
  })
})
