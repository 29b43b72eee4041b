import { json, type Reply } from './responses.js'

// Rails' human attribute names in the models' full messages, back to the attributes they name.
const ATTRIBUTES: readonly (readonly [string, string])[] = [
  ['Expiration date ', 'expires_at'],
  ['Expires at ', 'expires_at'],
  ['Description ', 'description'],
  ['Scopes ', 'scopes'],
  ['Name ', 'name'],
  ['Token ', 'token'],
]

/**
 * GitLab's `render_validation_error!`: the model's errors by attribute,
 * `{"message":{"scopes":["can't be blank"]}}`, with the route's status (400 by default in GitLab; the
 * hooks API's `save_hook` passes 422).
 */
export function validationReply(status: number, fullMessage: string): Reply {
  for (const [prefix, attribute] of ATTRIBUTES) {
    if (fullMessage.startsWith(prefix)) {
      return json(status, { message: { [attribute]: [fullMessage.slice(prefix.length)] } })
    }
  }
  return json(status, { message: { base: [fullMessage] } })
}
