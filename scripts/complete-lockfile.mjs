#!/usr/bin/env node
// Completes package-lock.json after `npm install`: an optional, platform-specific
// binary (e.g. @rollup/rollup-darwin-arm64) whose exact version the registry could not
// resolve is left out of the lock by npm, and `npm ci` then refuses the lock as out of
// sync. This adds each such entry (version, optional, os/cpu of its siblings) where
// npm's resolution would look for it. Such packages are never installed on a platform
// they are not built for, so nothing is downloaded for them.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const semver = require('semver')

const file = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages

/** Where `name` resolves from the package at `from` (node's lookup, upwards). */
function resolve(from, name) {
  let dir = from
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`
    if (packages[candidate]) return candidate
    if (!dir) return undefined
    const index = dir.lastIndexOf('/node_modules/')
    dir = index === -1 ? '' : dir.slice(0, index)
  }
}

/** os/cpu/libc of another version of the same package, so npm skips it off-platform. */
function platformOf(name) {
  for (const [path, entry] of Object.entries(packages)) {
    if (path.endsWith(`node_modules/${name}`) && (entry.os || entry.cpu)) {
      return Object.fromEntries(['os', 'cpu', 'libc'].filter(key => entry[key]).map(key => [key, entry[key]]))
    }
  }
  return {}
}

let added = 0
for (const [path, entry] of Object.entries({ ...packages })) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const found = resolve(path, name)
    if (found && semver.satisfies(packages[found].version, spec)) continue
    const version = semver.valid(spec) ?? semver.minVersion(spec)?.version
    if (!version) continue
    const target = found ? `${path ? `${path}/` : ''}node_modules/${name}` : `node_modules/${name}`
    if (packages[target]) continue
    packages[target] = { version, dev: entry.dev, optional: true, ...platformOf(name) }
    if (!packages[target].dev) delete packages[target].dev
    added++
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))))
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`complete-lockfile: added ${added} optional platform entr${added === 1 ? 'y' : 'ies'}`)
