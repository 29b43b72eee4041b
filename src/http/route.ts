import type { GranularRequirement } from '../authority/core/granular-access.js'
import type { Principal } from '../authority/core/principal.js'
import type { Feature } from '../authority/core/release.js'
import type { Authority } from '../authority/create-authority.js'
import type { RequestCredentials } from '../authority/requests/request-principal.js'
import type { HookTester } from './hook-test-routes.js'
import type { PathParams, PathRefusal } from './path-params.js'
import type { BodyParams } from './request-body.js'
import type { InvalidParameter } from './request-params.js'
import type { Reply } from './responses.js'

/** What every route handler gets: the request as the pipeline has read it. */
export interface RouteInput {
  readonly authority: Authority
  readonly url: URL
  /** The path's parameters by name (`id` of `/personal_access_tokens/:id`), percent-decoded. */
  readonly path: Readonly<Record<string, string>>
  /**
   * The parameters of a request with a body, as Grape sees them: the query's and the body's, the
   * body winning a name both give. Empty for GET, whose handlers read `url.searchParams`.
   */
  readonly params: BodyParams
  /** `HandlerOptions.publicUrl`, for absolute `Link` URLs. */
  readonly publicUrl: URL | undefined
  /** `HandlerOptions.hookTester`: what the hook test route sends with. */
  readonly hookTester?: HookTester | undefined
}

/** A route's input once the pipeline has the caller: GitLab's `current_user`, after `sudo`. */
export interface CallerInput<P extends Principal | null = Principal> extends RouteInput {
  readonly principal: P
  /** The row's declared `pathParams`, parsed (empty when it declares none): see `pathRoute`. */
  readonly pathValues: Readonly<Record<string, string | number>>
}

/** The input of a route whose use case authenticates the caller itself (`caller: 'use_case'`). */
export interface CredentialsInput extends RouteInput {
  readonly credentials: RequestCredentials
  readonly headers: { get(name: string): string | null }
  /** The pipeline's refusal of the request (an unknown parameter): the use case answers it after authentication. */
  readonly refusal: InvalidParameter | undefined
  /** The row's fine-grained requirement for this request (`null`: it declares none), for the use case to check. */
  readonly granular: GranularRequirement | null
}

/**
 * What a row declares for fine-grained tokens, as GitLab's `route_setting :authorization`: the
 * assignable permission (`name`) and the boundary it is checked at; a project or group boundary is the
 * resource the path parameter `ref` names (an id or a full path). `publicRead`: one of GitLab's
 * "publicly accessible endpoints", which a fine-grained token may read without the permission when
 * the resource is public.
 */
export type RoutePermission =
  | { readonly name: string; readonly boundary: 'user' | 'instance' }
  | {
      readonly name: string
      readonly boundary: 'project' | 'group'
      readonly ref: string
      readonly publicRead?: true
    }

/** What every row declares. */
export interface RowShape {
  /** GET rows serve HEAD too, without the body. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Relative to the base path; `:name` is a path parameter (one non-empty segment). */
  readonly path: string
  /** Patterns a path parameter must match as sent (GitLab's `requirements:`), else the path is no route (404). */
  readonly requirements?: Readonly<Record<string, RegExp>>
  /** The GitLab feature the route is: before its release, no route at all (404, before authentication). */
  readonly since?: Feature
  /**
   * The scopes the route's use case requires (one suffices), where one set applies to the route
   * whatever it addresses. The authority checks them (in its order: some parameters are validated
   * first); a test holds each row to what the route answers.
   */
  readonly scopes?: readonly string[]
  /**
   * GitLab's `route_setting :authorization` for the route (fine-grained-pats.md §8.1); absent when
   * GitLab declares none, and a fine-grained token is refused there (403). Legacy tokens ignore it.
   */
  readonly permission?: RoutePermission
  /** The body parameters the route knows (POST, DELETE); any other is 400 once the caller is authenticated. */
  readonly params?: readonly string[]
}

/**
 * The path parameters the pipeline parses for the handler (`pathValues`), after authentication and
 * the unknown-parameter check, and the answer to an invalid one; declare them with `pathRoute`, which
 * types the handler's input. A `'use_case'` row has none: its use case reads `path` in its own order.
 */
interface PathShape<P extends Principal | null> {
  readonly pathParams?: PathParams
  readonly refusePath?: PathRefusal<P>
}

/**
 * One route: a row of its module's table. `caller` says how the pipeline treats the request's caller:
 * absent, a token is required (GitLab's `authenticate!`: 401 without); `'optional'`, anonymous callers
 * are served too (`principal` is `null`); `'use_case'`, the use case authenticates the caller itself,
 * in one authority call (a rotation, whose replay comes before authentication).
 */
export type RouteRow =
  | (RowShape &
      PathShape<Principal> & {
        readonly caller?: undefined
        readonly serve: (input: CallerInput) => Reply | Promise<Reply>
      })
  | (RowShape &
      PathShape<Principal | null> & {
        readonly caller: 'optional'
        readonly serve: (input: CallerInput<Principal | null>) => Reply | Promise<Reply>
      })
  | (RowShape & {
      readonly caller: 'use_case'
      readonly pathParams?: undefined
      readonly serve: (input: CredentialsInput) => Reply | Promise<Reply>
    })
