import { existsSync, readFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchImageToFile, ImageFetchError, isPublicAddress } from '../../server/services/image-fetch'
import { startImageHost, type ImageHost } from '../support/image-host'

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8',
  ])('allows the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  it.each([
    ['loopback', '127.0.0.1'], ['loopback range', '127.8.9.10'], ['IPv6 loopback', '::1'],
    ['private 10/8', '10.1.2.3'], ['private 172.16/12', '172.31.255.1'], ['private 192.168/16', '192.168.0.1'],
    ['link-local / metadata', '169.254.169.254'], ['IPv6 link-local', 'fe80::1'],
    ['CGNAT', '100.64.0.1'], ['CGNAT top', '100.127.255.254'],
    ['multicast', '224.0.0.1'], ['IPv6 multicast', 'ff02::1'],
    ['unspecified', '0.0.0.0'], ['IPv6 unspecified', '::'], ['this network', '0.1.2.3'],
    ['broadcast', '255.255.255.255'], ['reserved', '240.0.0.1'],
    ['IPv6 unique-local', 'fd00:ec2::254'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'], ['IPv4-mapped private', '::ffff:10.0.0.1'], ['IPv4-mapped metadata', '::ffff:a9fe:a9fe'],
    ['6to4 of a private address', '2002:0a00:0001::1'], ['NAT64 of loopback', '64:ff9b::7f00:1'], ['Teredo', '2001:0::1'],
    ['not an address', 'example.com'],
  ])('refuses %s (%s)', (_, address) => {
    expect(isPublicAddress(address)).toBe(false)
  })
})

describe('fetchImageToFile', () => {
  let host: ImageHost
  const dir = mkdtempSync(join(tmpdir(), 'dif-fetch-'))
  const target = (name: string) => join(dir, name)
  const image = Buffer.from('pretend image bytes')
  // Allows only 127.0.0.1, so 127.0.0.2, ::1 and "localhost" stand in for private addresses.
  const onlyTheHost = (address: string) => address === '127.0.0.1'

  beforeAll(async () => {
    host = await startImageHost({
      '/img': image,
      '/to-private': { redirect: 'http://127.0.0.2:9/img' },
      '/to-localhost': { redirect: '/img' },
      '/r1': { redirect: '/img' },
      '/r2': { redirect: '/r1' },
      '/r3': { redirect: '/r2' },
      '/r4': { redirect: '/r3' },
      '/stream': { stream: 3 * 64 * 1024 },
      '/to-file': { redirect: 'file:///etc/passwd' },
    })
  })
  afterAll(() => host.close())

  it('downloads through up to 3 redirects', async () => {
    const result = await fetchImageToFile(`${host.url}/r3`, target('r3'), { isAllowedAddress: onlyTheHost, maxBytes: 1024 })
    expect(result).toEqual({ finalUrl: `${host.url}/img`, bytes: image.length })
    expect(readFileSync(target('r3'))).toEqual(image)
  })

  it('refuses a 4th redirect', async () => {
    await expect(fetchImageToFile(`${host.url}/r4`, target('r4'), { isAllowedAddress: onlyTheHost, maxBytes: 1024 })).rejects.toThrow('too many redirects')
    expect(existsSync(target('r4'))).toBe(false)
  })

  it('refuses a redirect to a private address before connecting', async () => {
    await expect(fetchImageToFile(`${host.url}/to-private`, target('p'), { isAllowedAddress: onlyTheHost, maxBytes: 1024 })).rejects.toThrow('refused address 127.0.0.2')
  })

  it('checks the resolved addresses of a host name on every hop', async () => {
    const viaName = host.url.replace('127.0.0.1', 'localhost')
    await expect(fetchImageToFile(`${viaName}/img`, target('n'), { maxBytes: 1024 })).rejects.toThrow(/refused address for localhost/)
    // With a policy that allows what localhost resolves to, the name is fetched (from the checked address).
    const allowLoopback = (address: string) => address === '127.0.0.1' || address === '::1'
    expect((await fetchImageToFile(`${viaName}/img`, target('n2'), { isAllowedAddress: allowLoopback, maxBytes: 1024 })).bytes).toBe(image.length)
  })

  it('refuses loopback literals by default and allows them with allowPrivate', async () => {
    await expect(fetchImageToFile(`${host.url}/img`, target('d'), { maxBytes: 1024 })).rejects.toThrow('refused address 127.0.0.1')
    expect((await fetchImageToFile(`${host.url}/img`, target('a'), { allowPrivate: true, maxBytes: 1024 })).bytes).toBe(image.length)
  })

  it('refuses schemes other than http and https, also on a redirect', async () => {
    await expect(fetchImageToFile('ftp://example.com/x.png', target('f'), { maxBytes: 1024 })).rejects.toThrow('scheme not allowed')
    await expect(fetchImageToFile(`${host.url}/to-file`, target('f2'), { allowPrivate: true, maxBytes: 1024 })).rejects.toThrow('scheme not allowed')
  })

  it('cuts a body off past the cap while streaming, and refuses a declared length over it', async () => {
    await expect(fetchImageToFile(`${host.url}/stream`, target('s'), { allowPrivate: true, maxBytes: 100 * 1024 })).rejects.toBeInstanceOf(ImageFetchError)
    expect(existsSync(target('s'))).toBe(false)
    await expect(fetchImageToFile(`${host.url}/img`, target('c'), { allowPrivate: true, maxBytes: 5 })).rejects.toThrow('declared length over the cap')
  })

  it('gives up after the total time limit', async () => {
    const { createServer } = await import('node:net')
    const silent = createServer(() => { /* accepts, never answers */ })
    await new Promise<void>(resolve => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    await expect(fetchImageToFile(`http://127.0.0.1:${port}/img`, target('t'), { allowPrivate: true, maxBytes: 1024, timeoutMs: 300 })).rejects.toBeInstanceOf(ImageFetchError)
    silent.close()
  })
})
