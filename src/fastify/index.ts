/**
 * patkit/fastify: protect a Fastify 5 route with a personal access token, through a request decorator
 * and a preHandler hook. Fastify is an optional peer dependency.
 * @packageDocumentation
 */
export { MissingPrincipalError } from '../http/missing-principal.js'
export { fastifyPatkit, requireToken } from './require-token.js'
