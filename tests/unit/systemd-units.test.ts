import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/** The systemd units docs/operations.md installs, checked as systemd reads them. */
const DEPLOYMENT = resolve(import.meta.dirname, '../../docs/deployment')
const analyze = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).trim()
  }
  catch {
    return ''
  }
})()

describe.skipIf(!analyze)('docs/deployment/*.service', () => {
  it('passes `systemd-analyze verify` without a warning', () => {
    const units = readdirSync(DEPLOYMENT).filter(name => name.endsWith('.service'))
    expect(units).toEqual(['does-it-fuck.service'])
    const dir = mkdtempSync(join(tmpdir(), 'dif-units-'))
    try {
      for (const unit of units) copyFileSync(join(DEPLOYMENT, unit), join(dir, unit))
      const result = spawnSync(analyze, ['verify', ...units.map(unit => join(dir, unit))], { encoding: 'utf8' })
      expect({ status: result.status, output: `${result.stdout}${result.stderr}` }).toEqual({ status: 0, output: '' })
    }
    finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
