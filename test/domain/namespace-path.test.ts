import { describe, expect, it } from 'vitest'
import { fullMessages, pathProblems } from '../../src/domain/namespace-path.js'

// GitLab's path rules per kind (issue 28): a root namespace refuses Gitlab::PathRegex::TOP_LEVEL_ROUTES,
// a subgroup ILLEGAL_GROUP_PATH_WORDS, a project ILLEGAL_PROJECT_PATH_WORDS (lib/gitlab/path_regex.rb,
// gitlabhq 03b596d4); namespaces need 2 characters (app/models/namespace.rb, 2008eb99), projects not.

describe('pathProblems', () => {
  it('refuses each kind’s reserved words, in any case, and only those', () => {
    expect(pathProblems('Admin', 'root_namespace')).toEqual(['Admin is a reserved name'])
    expect(pathProblems('admin', 'subgroup')).toEqual([])
    expect(pathProblems('admin', 'project')).toEqual([])
    expect(pathProblems('Blob', 'subgroup')).toEqual(['Blob is a reserved name'])
    expect(pathProblems('new', 'project')).toEqual(['new is a reserved name'])
    expect(pathProblems('new', 'root_namespace')).toEqual([])
  })

  it('needs two characters in a namespace, one in a project', () => {
    expect(pathProblems('a', 'subgroup')).toEqual(['is too short (minimum is 2 characters)'])
    expect(pathProblems('a', 'project')).toEqual([])
  })

  it('a project path may start with "." or "_", never end in .git, and has no separator rule', () => {
    expect(pathProblems('.dotfiles', 'project')).toEqual([])
    expect(pathProblems('a__b', 'project')).toEqual([])
    expect(pathProblems('api.git', 'project')).toEqual([
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
    ])
    expect(pathProblems('x'.repeat(256), 'project')).toEqual(['is too long (maximum is 255 characters)'])
  })

  it('joins full messages as Rails’ to_sentence', () => {
    expect(fullMessages('Path', ['a'])).toBe('Path a')
    expect(fullMessages('Path', ['a', 'b'])).toBe('Path a and Path b')
    expect(fullMessages('Path', ['a', 'b', 'c'])).toBe('Path a, Path b, and Path c')
  })
})
