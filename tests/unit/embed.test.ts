import { describe, expect, it } from 'vitest'
import { detectEmbed } from '../../shared/utils/embed'

describe('detectEmbed', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=42', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/aqz-KE-bpKQ', 'youtube', 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ'],
    ['https://vimeo.com/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    ['https://twitter.com/jack/status/20', 'twitter', 'https://platform.twitter.com/embed/Tweet.html?id=20'],
    ['https://x.com/nasa/status/1790000000000000000', 'twitter', 'https://platform.twitter.com/embed/Tweet.html?id=1790000000000000000'],
    ['https://www.tiktok.com/@scout2015/video/6718335390845095173', 'tiktok', 'https://www.tiktok.com/embed/v2/6718335390845095173'],
    ['https://www.instagram.com/p/CxYz_12-ab/', 'instagram', 'https://www.instagram.com/p/CxYz_12-ab/embed'],
    ['https://www.instagram.com/reel/Cabc123/', 'instagram', 'https://www.instagram.com/reel/Cabc123/embed'],
    ['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'spotify', 'https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC'],
    ['https://open.spotify.com/intl-de/album/1DFixLWuPkv3KT3TnV35m3', 'spotify', 'https://open.spotify.com/embed/album/1DFixLWuPkv3KT3TnV35m3'],
  ])('%s → %s', (url, platform, embedUrl) => {
    expect(detectEmbed(url)).toEqual({ platform, embedUrl })
  })

  it.each([
    'https://example.com/watch?v=dQw4w9WgXcQ',
    'https://notyoutube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/@channel',
    'https://vimeo.com/channels/staffpicks',
    'https://x.com/nasa',
    'https://www.tiktok.com/@scout2015',
    'https://www.instagram.com/nasa/',
    'https://open.spotify.com/user/spotify',
    'javascript:alert(1)',
    'not a url',
  ])('%s has no embed', (url) => {
    expect(detectEmbed(url)).toBeNull()
  })
})
