import { randomBytes } from 'node:crypto'

let lastMs = 0
let counter = 0

/**
 * A UUID version 7 (RFC 9562): the Unix time in milliseconds, then a counter,
 * then random bits. Ids made by this process sort as they were made, even
 * within one millisecond (the counter, then the time pushed on by one when it
 * runs out), and a clock set back never makes one sort before the last.
 * Rows ordered by time and then id (the moderation log, comments) keep the
 * order their writes happened in, and a new row's key goes to the right
 * edge of its primary key's index instead of a random page of it (fewer
 * pages for a commit to write: docs/database.md, "Group commit on SQLite").
 * Not for secrets: its time and counter are guessable.
 */
export function orderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now
    counter = 0
  }
  else if (++counter > 0xFFF) {
    lastMs += 1
    counter = 0
  }
  const random = randomBytes(9)
  const variant = (0x8 | (random[0]! & 0x3)).toString(16)
  const tail = random.toString('hex')
  const time = lastMs.toString(16).padStart(12, '0')
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, '0')}-${variant}${tail.slice(2, 5)}-${tail.slice(5, 17)}`
}
