/** The six platforms whose links get a rich embed (decisions.md "Uploads and media"). */
export type EmbedProvider = 'youtube' | 'vimeo' | 'twitter' | 'tiktok' | 'instagram' | 'spotify'

export interface Embed {
  provider: EmbedProvider
  embedUrl: string
}

const SPOTIFY_KINDS = new Set(['track', 'album', 'playlist', 'episode', 'show', 'artist'])

function host(url: URL): string {
  return url.hostname.toLowerCase().replace(/^(www\.|m\.|mobile\.)/, '')
}

/**
 * The player URL for a link to one of the six platforms, or null for any other
 * link. Pure, so the server (validation, OpenAPI) and the pages agree; the player
 * origins are the ones the CSP frame-src allows (server/plugins/csp.ts).
 */
export function embedFor(raw: string): Embed | null {
  let url: URL
  try {
    url = new URL(raw)
  }
  catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const h = host(url)
  const parts = url.pathname.split('/').filter(Boolean)
  const id = (value: string | undefined | null, pattern: RegExp) => (value && pattern.test(value) ? value : null)

  if (h === 'youtube.com' || h === 'youtube-nocookie.com' || h === 'music.youtube.com' || h === 'youtu.be') {
    const video = h === 'youtu.be'
      ? parts[0]
      : parts[0] === 'watch' ? url.searchParams.get('v') : ['embed', 'shorts', 'live', 'v'].includes(parts[0] ?? '') ? parts[1] : null
    const valid = id(video, /^[\w-]{11}$/)
    return valid ? { provider: 'youtube', embedUrl: `https://www.youtube-nocookie.com/embed/${valid}` } : null
  }
  if (h === 'vimeo.com' || h === 'player.vimeo.com') {
    const video = id(parts.find(part => /^\d+$/.test(part)), /^\d{1,12}$/)
    return video ? { provider: 'vimeo', embedUrl: `https://player.vimeo.com/video/${video}` } : null
  }
  if (h === 'twitter.com' || h === 'x.com') {
    const status = parts[1] === 'status' ? id(parts[2], /^\d{1,25}$/) : null
    return status ? { provider: 'twitter', embedUrl: `https://platform.twitter.com/embed/Tweet.html?id=${status}` } : null
  }
  if (h === 'tiktok.com') {
    const video = parts[1] === 'video' ? id(parts[2], /^\d{1,25}$/) : null
    return video ? { provider: 'tiktok', embedUrl: `https://www.tiktok.com/embed/v2/${video}` } : null
  }
  if (h === 'instagram.com') {
    const kind = parts[0] === 'reels' ? 'reel' : parts[0]
    const code = kind === 'p' || kind === 'reel' || kind === 'tv' ? id(parts[1], /^[\w-]{5,40}$/) : null
    return code ? { provider: 'instagram', embedUrl: `https://www.instagram.com/${kind}/${code}/embed` } : null
  }
  if (h === 'open.spotify.com') {
    const offset = parts[0]?.startsWith('intl-') ? 1 : 0
    const kind = parts[offset]
    const item = kind && SPOTIFY_KINDS.has(kind) ? id(parts[offset + 1], /^[A-Za-z0-9]{10,40}$/) : null
    return item ? { provider: 'spotify', embedUrl: `https://open.spotify.com/embed/${kind}/${item}` } : null
  }
  return null
}
