/**
 * The pages `npm run lighthouse` and `npm run profile:page` look at: a built
 * server seeded through the API with a user, 16 pictures, 4 links and some
 * votes, so the home page, an upload page, vote mode and a user page show what
 * a visitor sees on a site in use.
 */
import sharp from 'sharp'
import type { RunningServer } from '../../tests/support/server'

async function json(server: RunningServer, path: string, init: { method?: string, token?: string, body?: unknown } = {}) {
  const headers: Record<string, string> = { origin: server.url }
  if (init.token) headers.cookie = `auth-token=${init.token}`
  let body: BodyInit | undefined
  if (init.body instanceof FormData) body = init.body
  else if (init.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(init.body)
  }
  const response = await fetch(`${server.url}${path}`, { method: init.method ?? 'GET', headers, body })
  const text = await response.text()
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`)
  return { body: JSON.parse(text), cookie: response.headers.getSetCookie().join('; ') }
}

/** A picture with a photo's worth of detail: a gradient and shapes placed at random, so no two look alike to the duplicate check. */
function picture(hue: number, width: number, height: number): Promise<Buffer> {
  const shapes = Array.from({ length: 8 }, (_, i) => {
    const [x, y, r] = [Math.random() * width, Math.random() * height, (0.05 + Math.random() * 0.2) * height]
    return i % 2
      ? `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${(hue + i * 40) % 360},85%,${30 + i * 7}%)"/>`
      : `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${r}" fill="hsl(${(hue + i * 50) % 360},70%,${80 - i * 6}%)"/>`
  }).join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="${Math.random()}" y1="0" x2="${Math.random()}" y2="1">
      <stop offset="0" stop-color="hsl(${hue},80%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},70%,25%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
  </svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer()
}

async function register(server: RunningServer, name: string): Promise<string> {
  const { cookie } = await json(server, '/api/auth', { method: 'POST', body: { action: 'register', email: `${name}@example.com`, username: name, password: 'correct horse battery' } })
  const token = /auth-token=([^;]+)/.exec(cookie)?.[1]
  if (!token) throw new Error('no session cookie after registration')
  return token
}

/** Seeds `server` and names the pages to look at. */
export async function seedPages(server: RunningServer): Promise<{ imageId: string, username: string }> {
  const owner = await register(server, 'lighthouse_owner')
  const voter = await register(server, 'lighthouse_voter')
  const ids: string[] = []
  for (let i = 0; i < 20; i++) {
    // Now and then two random pictures still look alike to the duplicate check (409): another draw then.
    for (let draw = 1; ; draw++) {
      const form = new FormData()
      form.set('description', i % 5 === 4 ? `A link worth a look, number ${i + 1}` : `A sunset over the bay, picture ${i + 1}`)
      form.set('tags', i % 2 ? 'Sunset, Beach' : 'Sunset')
      if (i % 5 === 4) {
        form.set('upload_type', 'link')
        form.set('external_url', i % 10 === 4 ? `https://www.youtube.com/watch?v=video${i}` : `https://example.com/article-${i}`)
      }
      else {
        form.set('upload_type', 'image')
        form.set('file', new Blob([new Uint8Array(await picture(i * 37, i % 3 ? 1600 : 1080, i % 3 ? 1067 : 1350))], { type: 'image/jpeg' }), `sunset-${i}.jpg`)
      }
      try {
        ids.push((await json(server, '/api/upload', { method: 'POST', token: owner, body: form })).body.upload.id)
        break
      }
      catch (error) {
        if (draw >= 5 || !(error instanceof Error && error.message.includes('"duplicate":true'))) throw error
      }
    }
  }
  for (const [i, id] of ids.entries()) {
    if (i % 3 !== 2) await json(server, '/api/vote', { method: 'POST', token: voter, body: { uploadId: id, vote: i % 2 ? 'fucks' : 'does_not_fuck' } })
  }
  return { imageId: ids[0]!, username: 'lighthouse_owner' }
}
