import { describe, expect, it } from 'vitest'
import { canonicalAddress, clientAddressKey } from '../../server/utils/client-ip'

describe('canonicalAddress: one key per client, however its address is spelled', () => {
  it.each([
    ['5.6.7.8', '5.6.7.8'],
    [' 5.6.7.8 ', '5.6.7.8'],
    ['5.6.7.8:1234', '5.6.7.8'],
    ['::ffff:5.6.7.8', '5.6.7.8'],
    ['::ffff:506:708', '5.6.7.8'],
    ['::FFFF:0506:0708', '5.6.7.8'],
    ['[::ffff:5.6.7.8]', '5.6.7.8'],
    ['[::ffff:5.6.7.8]:443', '5.6.7.8'],
    ['0:0:0:0:0:ffff:5.6.7.8', '5.6.7.8'],
  ])('IPv4 %j → %j', (spelling, key) => {
    expect(canonicalAddress(spelling)).toBe(key)
  })

  it.each([
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:eeee:dddd:cccc', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0000:0000:0000:0009', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]:8080', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['::1', '::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
  ])('IPv6 %j → its /64 %j', (spelling, key) => {
    expect(canonicalAddress(spelling)).toBe(key)
  })

  it.each([
    '', 'unknown', 'junk', '05.06.07.08', '5.6.7.08', '::ffff:05.06.07.08', '0x5.6.7.8', '5.6.7', '256.1.1.1',
    '1.2.3.4.5', '1::2::3', '[5.6.7.8', '5.6.7.8:port', '[::1]junk', '<script>',
  ])('refuses %j', (spelling) => {
    expect(canonicalAddress(spelling)).toBeNull()
  })
})

describe('clientAddressKey', () => {
  const socketAddress = '::ffff:127.0.0.1'

  it('uses the socket address unless the proxy is trusted', () => {
    expect(clientAddressKey({ socketAddress, forwardedFor: '5.6.7.8', trustProxy: false })).toBe('127.0.0.1')
    expect(clientAddressKey({ socketAddress: '2001:db8::7', trustProxy: false })).toBe('2001:db8::/64')
  })

  it('maps every spelling of one forwarded IPv4 to one key under a trusted proxy', () => {
    const keys = ['5.6.7.8', '::ffff:506:708', '5.6.7.8:1234', '[::ffff:5.6.7.8]', '::ffff:5.6.7.8, 10.0.0.1']
      .map(forwardedFor => clientAddressKey({ socketAddress, forwardedFor, trustProxy: true }))
    expect(new Set(keys)).toEqual(new Set(['5.6.7.8']))
  })

  it('takes the left-most forwarded entry', () => {
    expect(clientAddressKey({ socketAddress, forwardedFor: '9.9.9.9, 5.6.7.8', trustProxy: true })).toBe('9.9.9.9')
  })

  it('ignores an invalid forwarded value and falls back to the socket address', () => {
    for (const forwardedFor of ['junk', '05.06.07.08', 'unknown, 5.6.7.8', '', ' , 5.6.7.8', undefined]) {
      expect(clientAddressKey({ socketAddress, forwardedFor, trustProxy: true }), String(forwardedFor)).toBe('127.0.0.1')
    }
  })

  it('names a client without a usable socket address "unknown"', () => {
    expect(clientAddressKey({ socketAddress: undefined, trustProxy: false })).toBe('unknown')
  })
})
