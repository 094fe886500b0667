import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { uploadWatchdog } from '../../composables/useUploads'

describe('the upload watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('ends an upload that never sends a byte after the stall limit, once', () => {
    const stalls: string[] = []
    uploadWatchdog(reason => stalls.push(reason), 60_000, 180_000)
    vi.advanceTimersByTime(59_999)
    expect(stalls).toEqual([])
    vi.advanceTimersByTime(1)
    expect(stalls).toEqual(['stalled'])
    vi.advanceTimersByTime(600_000)
    expect(stalls).toEqual(['stalled'])
  })

  it('counts the stall from the last progress, however long the upload takes', () => {
    const stalls: string[] = []
    const watchdog = uploadWatchdog(reason => stalls.push(reason), 60_000, 180_000)
    for (let second = 0; second < 300; second += 50) {
      vi.advanceTimersByTime(50_000)
      watchdog.progress()
    }
    expect(stalls).toEqual([])
    vi.advanceTimersByTime(60_000)
    expect(stalls).toEqual(['stalled'])
  })

  it('gives the answer its own, longer limit once every byte is sent', () => {
    const stalls: string[] = []
    const watchdog = uploadWatchdog(reason => stalls.push(reason), 60_000, 180_000)
    vi.advanceTimersByTime(30_000)
    watchdog.sent()
    // A late progress event does not bring back the shorter limit.
    watchdog.progress()
    vi.advanceTimersByTime(179_999)
    expect(stalls).toEqual([])
    vi.advanceTimersByTime(1)
    expect(stalls).toEqual(['unanswered'])
  })

  it('stays quiet once the request has ended', () => {
    const stalls: string[] = []
    const watchdog = uploadWatchdog(reason => stalls.push(reason), 60_000, 180_000)
    watchdog.sent()
    watchdog.stop()
    watchdog.progress()
    watchdog.sent()
    vi.advanceTimersByTime(600_000)
    expect(stalls).toEqual([])
  })
})
