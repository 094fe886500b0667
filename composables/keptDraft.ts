import type { ReportReason } from '#shared/utils/report-kinds'

/** How long an unsent draft is kept on this device untouched. */
const DRAFT_MS = 30 * 24 * 60 * 60 * 1000

/** A kept draft: when, what, and the account that wrote it (drafts are an account's: uploads and comments need one). */
interface Kept { savedAt: number, value: unknown, owner?: string | null }

function readKept(key: string): Kept | null {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<Kept> | null
    return kept && typeof kept.savedAt === 'number' ? kept as Kept : null
  }
  catch {
    return null
  }
}

function remove(key: string) {
  try {
    localStorage.removeItem(key)
  }
  catch { /* storage unavailable: nothing kept */ }
}

/**
 * Unsent text kept in this browser's localStorage under `key`, with the time
 * it was saved, so a reload, a crash or a closed tab loses nothing
 * (docs/behaviour.md, Uploads and media; Community). Browser only: read it
 * after mount, as the server renders every form empty. Storage that is full,
 * turned off or unreadable keeps nothing and never throws.
 *
 * A draft is the signed-in account's: another account signed in on the same
 * browser is never shown it, and signing out forgets every draft
 * (forgetEveryDraft), so the next person at the device finds none.
 */
export function keptDraft(key: string) {
  const { user } = useAuth()
  const owner = () => user.value?.id ?? null
  return {
    /** What was kept (check its shape), or undefined when nothing is, it is another account's, or it is 30 days old (then forgotten). */
    read(): unknown {
      const kept = readKept(key)
      // A draft kept before drafts named their account (no `owner`) is whoever's reads it first.
      if (kept && kept.savedAt > Date.now() - DRAFT_MS) return !('owner' in kept) || kept.owner === owner() ? kept.value : undefined
      if (kept) remove(key)
      return undefined
    },
    /** Keeps `value`; undefined forgets the draft. */
    write(value: unknown) {
      if (value === undefined) return remove(key)
      try {
        localStorage.setItem(key, JSON.stringify({ savedAt: Date.now(), value, owner: owner() } satisfies Kept))
      }
      catch { /* storage full or unavailable: the form still holds it */ }
    },
  }
}

/** Forgets every draft kept under a key starting with `prefix` that is 30 days old (or unreadable). */
export function forgetOldDrafts(prefix: string) {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i)
      if (key?.startsWith(prefix) && !((readKept(key)?.savedAt ?? 0) > Date.now() - DRAFT_MS)) remove(key)
    }
  }
  catch { /* storage unavailable: nothing kept */ }
}

/** Forgets every kept draft, whoever wrote it, and every unsent report: as an account signs out of this browser. */
export function forgetEveryDraft() {
  unsentReports.clear()
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i)
      if (key && readKept(key)) remove(key)
    }
  }
  catch { /* storage unavailable: nothing kept */ }
}

/** The kept edit of an upload (UploadEditForm), read by its page to open the form again after a reload. */
export const uploadEditDraft = (uploadId: string) => keptDraft(`upload-edit-draft:${uploadId}`)

/** Where an upload's unsent comments are kept (useCommentDrafts), one key an upload. */
export const COMMENT_DRAFT_PREFIX = 'comment-drafts:'

/**
 * Forgets the signed-in account's drafts for an upload (its edit, its
 * comments) once the upload is deleted or found gone: nothing is left to
 * send them to. Another account's drafts, or a signed-out visitor's view of
 * a private upload, are left alone.
 */
export function forgetUploadDrafts(uploadId: string) {
  for (const draft of [uploadEditDraft(uploadId), keptDraft(`${COMMENT_DRAFT_PREFIX}${uploadId}`)]) {
    if (draft.read() !== undefined) draft.write(undefined)
  }
}

/**
 * What was chosen and typed in a report not sent yet, by what it is about
 * (`<upload>:<comment>`), for the page's life (UploadReport): a dialog closed
 * by mistake gives it back. In memory, never on the device: a report may name
 * what a visitor would not keep there. Written in the browser only.
 */
export const unsentReports = new Map<string, { reason: ReportReason | '', details: string }>()
