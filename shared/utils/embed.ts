export type EmbedPlatform = 'youtube' | 'vimeo' | 'twitter' | 'tiktok' | 'instagram' | 'spotify'

/** Each platform's name as a person reads it. */
export const EMBED_PLATFORM_NAMES: Record<EmbedPlatform, string> = { youtube: 'YouTube', vimeo: 'Vimeo', twitter: 'X / Twitter', tiktok: 'TikTok', instagram: 'Instagram', spotify: 'Spotify' }

export interface Embed {
  platform: EmbedPlatform
  /** The address to put in an iframe. */
  embedUrl: string
}

const YOUTUBE_ID = /^[\w-]{11}$/
const SPOTIFY_KINDS = new Set(['track', 'album', 'playlist', 'episode', 'show', 'artist'])

function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^(www\.|m\.|mobile\.)/, '')
}

function youtube(url: URL, host: string, parts: string[]): string | null {
  let id: string | null | undefined
  if (host === 'youtu.be') id = parts[0]
  else if (host === 'youtube.com' || host === 'music.youtube.com' || host === 'youtube-nocookie.com') {
    if (parts[0] === 'watch') id = url.searchParams.get('v')
    else if (['shorts', 'embed', 'live', 'v'].includes(parts[0] ?? '')) id = parts[1]
  }
  return id && YOUTUBE_ID.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null
}

function vimeo(host: string, parts: string[]): string | null {
  const id = host === 'player.vimeo.com' && parts[0] === 'video' ? parts[1] : host === 'vimeo.com' ? parts.find(p => /^\d+$/.test(p)) : undefined
  return id && /^\d+$/.test(id) ? `https://player.vimeo.com/video/${id}` : null
}

function twitter(parts: string[]): string | null {
  const at = parts.indexOf('status')
  const id = at > 0 ? parts[at + 1] : undefined
  return id && /^\d+$/.test(id) ? `https://platform.twitter.com/embed/Tweet.html?id=${id}` : null
}

function tiktok(parts: string[]): string | null {
  const id = parts[0]?.startsWith('@') && parts[1] === 'video' ? parts[2] : undefined
  return id && /^\d+$/.test(id) ? `https://www.tiktok.com/embed/v2/${id}` : null
}

function instagram(parts: string[]): string | null {
  const at = parts.findIndex(p => p === 'p' || p === 'reel' || p === 'tv')
  const code = at >= 0 ? parts[at + 1] : undefined
  return code && /^[\w-]+$/.test(code) ? `https://www.instagram.com/${parts[at]}/${code}/embed` : null
}

function spotify(parts: string[]): string | null {
  const rest = parts[0]?.startsWith('intl-') ? parts.slice(1) : parts
  const [kind, id] = rest
  return kind && id && SPOTIFY_KINDS.has(kind) && /^[A-Za-z0-9]+$/.test(id) ? `https://open.spotify.com/embed/${kind}/${id}` : null
}

/**
 * The rich embed of a link to one of the six supported platforms (YouTube incl.
 * youtu.be and shorts, Vimeo, X/Twitter, TikTok, Instagram, Spotify), or null
 * for any other address. Pure: used by the UI to render links.
 */
export function detectEmbed(address: string): Embed | null {
  let url: URL
  try {
    url = new URL(address)
  }
  catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const host = hostOf(url)
  const parts = url.pathname.split('/').filter(Boolean)
  const found = (platform: EmbedPlatform, embedUrl: string | null): Embed | null => embedUrl ? { platform, embedUrl } : null
  if (['youtu.be', 'youtube.com', 'music.youtube.com', 'youtube-nocookie.com'].includes(host)) return found('youtube', youtube(url, host, parts))
  if (host === 'vimeo.com' || host === 'player.vimeo.com') return found('vimeo', vimeo(host, parts))
  if (host === 'twitter.com' || host === 'x.com') return found('twitter', twitter(parts))
  if (host === 'tiktok.com') return found('tiktok', tiktok(parts))
  if (host === 'instagram.com') return found('instagram', instagram(parts))
  if (host === 'open.spotify.com') return found('spotify', spotify(parts))
  return null
}

/**
 * The words a link upload's tile shows in place of a picture: the platform's
 * name for embeds, else the address's host (without `www.`), else `link`. A
 * card's accessible name starts with them, so it contains what is seen.
 */
export function linkTileName(address: string | null): string {
  const embed = address ? detectEmbed(address) : null
  if (embed) return EMBED_PLATFORM_NAMES[embed.platform]
  try {
    return new URL(address ?? '').hostname.replace(/^www\./, '') || 'link'
  }
  catch {
    return 'link'
  }
}
