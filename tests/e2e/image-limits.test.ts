import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerUser } from '../support/api'
import { manyFrameGif, randomPicture } from '../support/images'
import { startServer, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

describe('image processing cannot be monopolised', () => {
  it('refuses an animation of over 500 frames from its header, before decoding it', async () => {
    const user = await registerUser()
    const gif = await manyFrameGif(1000)
    const response = await postUpload(user, { upload_type: 'image', description: 'a thousand frames' }, { data: gif, name: 'many.gif', type: 'image/gif' })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Too many animation frames (max 500)' })
  })

  describe('with the processing queue full', () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await startServer()
    })
    afterAll(() => server?.stop())

    it('answers 503 with Retry-After to uploads beyond the queue, and accepts them again once it drains', async () => {
      // 49-megapixel JPEGs: about a second each in a processing slot, so a burst of
      // eight finds two in the two slots, four waiting (the queue's bound) and two refused.
      const user = await registerUser({}, server.url)
      const heavy = () => randomPicture({ width: 7000, height: 7000, seed: randomBytes(16 * 12 * 3) }).then(picture => picture.jpeg({ quality: 80 }).toBuffer())
      const images = []
      for (let i = 0; i < 8; i++) images.push(await heavy())
      const responses = await Promise.all(images.map((data, i) =>
        postUpload(user, { upload_type: 'image', description: `heavy ${i}` }, { data, name: `heavy-${i}.jpg`, type: 'image/jpeg' }, server.url)))

      const refused = responses.filter(response => response.status === 503)
      expect(responses.map(response => response.status).sort()).toEqual([201, 201, 201, 201, 201, 201, 503, 503])
      for (const response of refused) {
        expect(response.body).toEqual({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'Image processing is busy, please try again later', requestId: response.headers.get('x-request-id') })
        expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
      }
      const again = await postUpload(user, { upload_type: 'image', description: 'after the burst' }, { data: await heavy(), name: 'later.jpg', type: 'image/jpeg' }, server.url)
      expect(again.status).toBe(201)
    }, 180_000)
  })
})
