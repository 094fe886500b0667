import { mkdirSync } from 'node:fs'
import type { MediaOptions } from '../services/uploads'

let folders: Omit<MediaOptions, 'allowPrivateFetch'> | undefined

/** Where media and temporary uploads live, and whether image_url may reach private addresses. */
export function mediaOptions(): MediaOptions {
  if (!folders) {
    folders = { mediaDir: dataPath('media'), tmpDir: dataPath('tmp') }
    mkdirSync(`${folders.mediaDir}/thumbs`, { recursive: true })
    mkdirSync(`${folders.mediaDir}/display`, { recursive: true })
    mkdirSync(`${folders.mediaDir}/pending`, { recursive: true })
    mkdirSync(folders.tmpDir, { recursive: true })
  }
  return { ...folders, allowPrivateFetch: String(useRuntimeConfig().imageFetchAllowPrivate) === 'true' }
}
