import { fork } from 'node:child_process'
import autocannon from 'autocannon'
const [which, contender] = [process.argv[2] ?? 'fastify', process.argv[3] ?? 'patkit']
const server = fork('bench/suites/guard-server.mjs', ['patkit'], { execArgv: ['--cpu-prof', '--cpu-prof-dir=/tmp/guardprof', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
const ready = await new Promise((r) => server.once('message', r))
const { sampleIndexes, secretOf } = await import('./bench/lib/dataset.mjs')
const secrets = sampleIndexes(1000, 64).map(secretOf)
const port = ready.ports[which][contender]
await autocannon({ url: `http://127.0.0.1:${port}`, connections: 10, duration: 2, requests: secrets.map((s) => ({ method: 'GET', path: '/me', headers: { 'private-token': s } })) })
const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 10, duration: 8, requests: secrets.map((s) => ({ method: 'GET', path: '/me', headers: { 'private-token': s } })) })
console.log(which, contender, r['2xx'] / 8, r.non2xx)
server.disconnect()
await new Promise((r) => server.once('exit', r))
