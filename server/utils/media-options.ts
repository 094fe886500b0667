import { mkdirSync } from 'node:fs'
import { fsMediaStore, type MediaStore } from '../services/media-store'
import { s3MediaStore, s3Settings } from '../services/media-store-s3'
import type { MediaOptions } from '../services/uploads'
import { settingOn } from './settings'

let store: MediaStore | undefined
let tmpDir: string | undefined

/** `NUXT_MEDIA_STORAGE`: `fs` (the default) or `s3`; anything else stops the start. */
export function mediaStorageKind(): 'fs' | 's3' {
  const kind = String(useRuntimeConfig().mediaStorage || 'fs').trim().toLowerCase()
  if (kind !== 'fs' && kind !== 's3') throw new Error(`NUXT_MEDIA_STORAGE must be fs or s3, not "${kind}"`)
  return kind
}

/** Where media live: `<data>/media`, or the bucket of NUXT_S3_* when NUXT_MEDIA_STORAGE=s3. */
export function mediaStore(): MediaStore {
  store ??= mediaStorageKind() === 's3' ? s3MediaStore(s3Settings(useRuntimeConfig().s3)) : fsMediaStore(dataPath('media'))
  return store
}

/** Where media and temporary uploads live, and whether image_url may reach private addresses. */
export function mediaOptions(): MediaOptions {
  if (!tmpDir) {
    tmpDir = dataPath('tmp')
    mkdirSync(tmpDir, { recursive: true })
  }
  return { store: mediaStore(), tmpDir, allowPrivateFetch: settingOn(useRuntimeConfig().imageFetchAllowPrivate) }
}
