import { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type { ResourceStore } from '../store/resource-store.js'
import { insertNextUser, selectUsers } from './created-users.js'
import type { SqlContext } from './options.js'
import { GROUPS, PROJECTS, selectResource, selectResources } from './resource-reads.js'
import { deleteMember, putResource, upsertMember } from './resource-writes.js'
import { sqlAudit } from './sql-audit.js'
import { sqlHooks } from './sql-hooks.js'
import { toStoreFailure } from './store-failure.js'

/**
 * The SQL store's {@link ResourceStore} (schema versions 0007 and 0008): groups, projects, their
 * members, the users the API creates, and (0008) the hooks, their logs, the expiry notices given and
 * the audit events. Every method is one statement or one transaction; a driver failure, a
 * full path or username taken, a member of a missing resource, come back as a `store_failure`.
 */
export function sqlResources(context: SqlContext): ResourceStore {
  const run = <T>(operation: string, work: () => Promise<T>): ResultAsync<T, StoreFailure> =>
    ResultAsync.fromPromise((async () => work())(), toStoreFailure(operation))
  return Object.freeze({
    findGroup: (ref) => run('findGroup', () => selectResource(context, GROUPS, ref)),
    findProject: (ref) => run('findProject', () => selectResource(context, PROJECTS, ref)),
    putGroup: (group) => run('putGroup', () => putResource(context, 'group', group)),
    putProject: (project) => run('putProject', () => putResource(context, 'project', project)),
    listGroups: () => run('listGroups', () => selectResources(context, GROUPS)),
    listProjects: () => run('listProjects', () => selectResources(context, PROJECTS)),
    setMember: (resource, member) => run('setMember', () => upsertMember(context, resource, member)),
    removeMember: (resource, userId) => run('removeMember', () => deleteMember(context, resource, userId)),
    createUser: (draft) => run('createUser', () => insertNextUser(context, draft)),
    listUsers: (filter) => run('listUsers', () => selectUsers(context, filter)),
    hooks: sqlHooks(context),
    audit: sqlAudit(context),
  } satisfies ResourceStore)
}
