# frozen_string_literal: true

# Drives the Ruby `gitlab` gem (Debian's ruby-gitlab) against a running `patkit serve` and prints
# what it saw as one JSON object; test/e2e/ruby-gitlab.test.ts asserts it.
#
# Usage: ruby ruby_gitlab_check.rb URL ROOT_SECRET ALICE_SECRET ALICE_READ_API_SECRET BOB_SECRET
#
# The gem (4.17) has no methods for the personal access token API: those calls go through the
# client's own request methods (`client.get/post/delete`), which add its authentication header,
# parse the JSON into ObjectifiedHash/PaginatedResponse and raise its Gitlab::Error classes.

require 'date'
require 'gitlab'
require 'json'

url, root_secret, alice_secret, read_api_secret, bob_secret = ARGV
endpoint = "#{url}/api/v4"
client = ->(secret) { Gitlab.client(endpoint: endpoint, private_token: secret) }

root = client.call(root_secret)
alice = client.call(alice_secret)
bob = client.call(bob_secret)
report = { 'gem' => Gitlab::VERSION }

# The current user, as `gitlab user` does.
me = root.user
report['user'] = { 'id' => me.id, 'username' => me.username, 'is_admin' => me.is_admin }

# The gem's pagination: auto_paginate follows each page's Link rel="next".
pages = []
first = root.get('/personal_access_tokens', query: { per_page: 3 })
first.each_page { |page| pages << page.map(&:id) }
report['pages'] = pages
report['filtered_ids'] = root.get('/personal_access_tokens',
                                  query: { user_id: 2, state: 'active', per_page: 2 }).auto_paginate.map(&:id)
report['search_ids'] = root.get('/personal_access_tokens', query: { search: 'deploy' }).auto_paginate.map(&:id)

report['got'] = root.get('/personal_access_tokens/10').to_h
report['self'] = alice.get('/personal_access_tokens/self').to_h

# Rotation by id (form-encoded body, as the gem sends it) and then self-rotation with the new secret.
expires = (Date.today + 30).iso8601
rotated = alice.post('/personal_access_tokens/6/rotate', body: { expires_at: expires })
successor = client.call(rotated.token)
report['rotated'] = {
  'id' => rotated.id, 'name' => rotated.name, 'expires_at' => rotated.expires_at, 'active' => rotated.active,
  'has_token' => rotated.token.is_a?(String) && !rotated.token.empty?,
  'expected_expiry' => expires
}
self_rotated = successor.post('/personal_access_tokens/self/rotate')
report['self_rotated'] = { 'name' => self_rotated.name, 'previous_id' => rotated.id, 'id' => self_rotated.id }
report['old_after_rotate'] = root.get('/personal_access_tokens/6').revoked

# Revocation.
root.delete('/personal_access_tokens/9')
report['revoked_9'] = root.get('/personal_access_tokens/9').revoked

# The gem's error classes for GitLab's answers.
def outcome
  yield
  nil
rescue Gitlab::Error::ResponseError => e
  # The gem's message: the first of message, error_description and error in the body.
  { 'class' => e.class.name, 'status' => e.response_status, 'message' => e.message }
end

wrong = client.call('glpat-not-a-token-at-all')
report['errors'] = {
  'wrong_token' => outcome { wrong.get('/personal_access_tokens') },
  'other_users_token' => outcome { bob.get('/personal_access_tokens/2') },
  'read_api_rotate' => outcome { client.call(read_api_secret).post('/personal_access_tokens/3/rotate') },
  'admin_missing' => outcome { root.get('/personal_access_tokens/9999') },
  'non_admin_user_filter' => outcome { alice.get('/personal_access_tokens', query: { user_id: 3 }) },
  'bad_state' => outcome { root.get('/personal_access_tokens', query: { state: 'dormant' }) },
  'non_admin_impersonation' => outcome { alice.get('/users/2/impersonation_tokens') }
}

# sudo: the gem's `sudo:` option sends the `sudo` parameter on every request. Last, as it creates a
# token (an administrator's token with the `sudo` scope).
sudo_token = root.post('/users/1/personal_access_tokens', body: { name: 'sudo', scopes: %w[api sudo] })
as_alice = Gitlab.client(endpoint: endpoint, private_token: sudo_token.token, sudo: 'alice')
report['sudo'] = {
  'user' => as_alice.user.username,
  'self_of' => as_alice.get('/personal_access_tokens/self').user_id,
  'by_id' => Gitlab.client(endpoint: endpoint, private_token: sudo_token.token, sudo: 2).user.username,
  'non_admin' => outcome { Gitlab.client(endpoint: endpoint, private_token: alice_secret, sudo: 'bob').user },
  'without_scope' => outcome { Gitlab.client(endpoint: endpoint, private_token: root_secret, sudo: 'alice').user },
  'unknown_user' => outcome { Gitlab.client(endpoint: endpoint, private_token: sudo_token.token, sudo: 'nobody').user }
}

puts JSON.generate(report)
