import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const run = promisify(execFile)

describe('the operator\'s scripts', () => {
  // What CONTRIBUTING.md and the docs point a newcomer at: each says how it is used and exits 0, touching no site.
  it.each(['seed', 'admin', 'move-data', 'backup', 'restore'])('npm run %s -- --help prints its usage', async (name) => {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', join(ROOT, `scripts/${name}.ts`), '--help'], {
      cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NUXT_DATA_DIR: '/nonexistent/dif-help' },
    })
    expect(stdout).toMatch(new RegExp(`^Usage: npm run ${name} -- `))
    expect(stderr).toBe('')
  }, 30_000)
})
