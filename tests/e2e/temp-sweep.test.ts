import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server'

describe('temporary files left by a crash are reclaimed at start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dif-sweep-'))
  let server: RunningServer | undefined
  afterAll(async () => {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('empties <data>/tmp and drops *.tmp from the media folders, keeping live media', async () => {
    // What a kill -9 mid-upload, mid-fetch and mid-write leaves behind.
    for (const dir of ['tmp/leftover-dir', 'media/small', 'media/thumbs', 'media/medium', 'media/display']) mkdirSync(join(dataDir, dir), { recursive: true })
    const stale = [
      'tmp/upload-0b7c8f6e-6f1e-4c1e-9f54-3a1d2b9c8e70',
      'tmp/fetch-5d2f1a3b-8c4e-4b6a-a1f2-7e9d0c3b5a68',
      'tmp/leftover-dir/part',
      'media/2f6c1d8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f.png.9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.tmp',
      'media/thumbs/2f6c1d8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f.webp.1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d.tmp',
      ...['small', 'medium', 'display'].map(folder => `media/${folder}/2f6c1d8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f.webp.4b3c2d1e-5e6f-4a7b-8c9d-0e1f2a3b4c5d.tmp`),
    ]
    const live = [
      'media/7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.png',
      'media/thumbs/7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.webp',
      'media/medium/7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.webp',
      'media/not-temporary.tmp.png',
    ]
    for (const file of [...stale, ...live]) writeFileSync(join(dataDir, file), Buffer.alloc(64 * 1024, 1))

    server = await startServer({}, { dataDir })

    for (const file of stale) expect(existsSync(join(dataDir, file)), file).toBe(false)
    for (const file of live) expect(existsSync(join(dataDir, file)), file).toBe(true)
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([])
    expect(server.output()).toContain('removed 8 temporary file(s)')
  })

  it('leaves the files of another server alive on the same data dir, unless untouched for 15 minutes', async () => {
    // The first server is still running: an upload of its in flight, and a crash's leftover from long ago.
    const live = join(dataDir, 'tmp/upload-1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f')
    const old = join(dataDir, 'tmp/upload-9f8e7d6c-5b4a-4f3e-8d2c-1b0a9f8e7d6c')
    writeFileSync(live, 'still being written')
    writeFileSync(old, 'left by a crash')
    const longAgo = new Date(Date.now() - 20 * 60_000)
    utimesSync(old, longAgo, longAgo)
    const second = await startServer({}, { dataDir })
    try {
      expect(existsSync(live)).toBe(true)
      expect(existsSync(old)).toBe(false)
      expect(second.output()).toContain('removed 1 temporary file(s)')
    }
    finally {
      await second.stop()
    }
    rmSync(live)
  })
})
