import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'
import { api } from './api'

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

/** Authenticator-data flags (WebAuthn §6.1). */
const UP = 0x01
const UV = 0x04
const AT = 0x40

export interface CeremonyOverrides {
  /** The origin written into clientDataJSON (default: the authenticator's). */
  origin?: string
  /** The RP ID whose hash leads authenticatorData (default: the authenticator's). */
  rpId?: string
  /** The challenge signed (default: the options'). */
  challenge?: string
  /** Whether the user-verified flag is set (default: true). */
  userVerified?: boolean
  /** The user handle sent back at sign-in (default: the one registered). */
  userHandle?: string
}

/**
 * A software passkey for HTTP tests: an ES256 (P-256) key made with node:crypto,
 * answering registration with a `none` attestation and sign-in with a real
 * signature over authenticatorData and the clientDataJSON hash, as a platform
 * authenticator with user verification would.
 */
export class SoftAuthenticator {
  readonly credentialId: Uint8Array = randomBytes(16)
  /** Signature counter; each sign-in adds `counterStep` before signing. */
  counter = 0
  userHandle: string | undefined
  private readonly privateKey: KeyObject
  private readonly publicKey: KeyObject

  constructor(readonly origin: string, readonly rpId = new URL(origin).hostname, readonly counterStep = 1) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    this.privateKey = pair.privateKey
    this.publicKey = pair.publicKey
  }

  get id(): string {
    return b64url(this.credentialId)
  }

  /** The public key as a COSE_Key (kty EC2, alg ES256, crv P-256, x, y). */
  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' })
    return isoCBOR.encode(new Map<number, number | Uint8Array>([
      [1, 2], [3, -7], [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]))
  }

  private authenticatorData(rpId: string, flags: number, counter: number, attested?: Uint8Array): Buffer {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), count]
    if (attested) {
      const length = Buffer.alloc(2)
      length.writeUInt16BE(this.credentialId.length)
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(attested))
    }
    return Buffer.concat(parts)
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** RegistrationResponseJSON for registration options (as `startRegistration()` returns it). */
  register(options: { challenge: string, user: { id: string } }, overrides: CeremonyOverrides = {}) {
    this.userHandle = options.user.id
    const flags = UP | AT | (overrides.userVerified === false ? 0 : UV)
    const authData = this.authenticatorData(overrides.rpId ?? this.rpId, flags, this.counter, this.coseKey())
    const attestationObject = isoCBOR.encode(new Map<string, Uint8Array | string | Map<string, string>>([
      ['fmt', 'none'], ['attStmt', new Map<string, string>()], ['authData', new Uint8Array(authData)],
    ]))
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  /** AuthenticationResponseJSON for sign-in options (as `startAuthentication()` returns it). */
  authenticate(options: { challenge: string }, overrides: CeremonyOverrides = {}) {
    this.counter += this.counterStep
    const flags = UP | (overrides.userVerified === false ? 0 : UV)
    const authData = this.authenticatorData(overrides.rpId ?? this.rpId, flags, this.counter)
    const clientDataJSON = this.clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin)
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey)
    const userHandle = overrides.userHandle ?? this.userHandle
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }
}

/**
 * Registers a new software passkey for a signed-in user through the API of
 * the server at `baseURL` (its site URL is the origin); answers the created passkey.
 */
export async function registerPasskey(user: { token: string }, baseURL: string, name = 'Laptop', authenticator = new SoftAuthenticator(new URL(baseURL).origin)) {
  const options = await api('/api/auth/passkeys/register/options', { method: 'POST', token: user.token, baseURL })
  const added = await api('/api/auth/passkeys/register/verify', { method: 'POST', token: user.token, baseURL, body: { name, response: authenticator.register(options.body) } })
  if (added.status !== 201) throw new Error(`passkey registration answered ${added.status}: ${JSON.stringify(added.body)}`)
  return { authenticator, passkey: added.body.passkey as { id: string, name: string } }
}
