# frozen_string_literal: true

# Drives the Ruby `gitlab` gem (Debian's ruby-gitlab 4.17) on GitLab's project and group access
# tokens against the fake of test/e2e/ruby-gitlab-resource-tokens.test.ts and prints what it saw as
# one JSON object. The gem has no methods for these routes: the calls go through its own request
# methods (`client.get/post/delete`), which add its authentication header and raise its error classes.
#
# Usage: ruby ruby_gitlab_resource_check.rb URL ALICE BOB CAROL PROJECT_BOT GROUP_BOT

require 'gitlab'
require 'json'

url, alice, bob, carol, project_bot, group_bot = ARGV
client = ->(secret) { Gitlab.client(endpoint: "#{url}/api/v4", private_token: secret) }

def outcome
  yield
  nil
rescue Gitlab::Error::ResponseError => e
  { 'class' => e.class.name, 'status' => e.response_status }
end

report = { 'gem' => Gitlab::VERSION }
[['project', project_bot, bob], ['group', group_bot, carol]].each do |kind, bot_secret, outsider|
  api = client.call(alice)
  base = "/#{kind}s/1/access_tokens"
  seen = {}
  seen['listed'] = api.get(base).map(&:to_h)
  created = api.post(base, body: { name: 'ci', scopes: ['read_api'], expires_at: '2026-02-01', access_level: 30 })
  seen['created'] = created.to_h.reject { |k, _| k == 'token' }
  seen['got'] = api.get("#{base}/#{created.id}").to_h
  seen['rotated'] = api.post("#{base}/#{created.id}/rotate").to_h.reject { |k, _| k == 'token' }
  seen['self_rotated'] = client.call(bot_secret).post("#{base}/self/rotate", body: { expires_at: '2026-03-01' })
                               .to_h.reject { |k, _| k == 'token' }
  api.delete("#{base}/#{seen['rotated']['id']}")
  seen['after'] = api.get(base).map { |t| [t.id, t.revoked] }
  seen['errors'] = {
    'outsider_list' => outcome { client.call(outsider).get(base) },
    'unknown_get' => outcome { api.get("#{base}/9999") },
    'human_self_rotate' => outcome { api.post("#{base}/self/rotate") }
  }
  report[kind] = seen
end

puts JSON.generate(report)
