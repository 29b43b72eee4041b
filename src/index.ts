/**
 * patkit: an embeddable GitLab personal access token authority.
 *
 * @example
 * ```ts
 * import { createToken, isActive } from 'patkit'
 * ```
 * @packageDocumentation
 */
export * from './domain/index.js'
