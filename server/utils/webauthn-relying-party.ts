import type { RelyingParty } from '../services/passkeys'
import { MFA_ISSUER } from '../services/mfa'

/**
 * The WebAuthn relying party of this site, from NUXT_PUBLIC_SITE_URL: its host
 * name is the RP ID and its origin the only origin answers may come from. A
 * browser offers passkeys only on https or http://localhost, and only for a
 * domain name (an IP address is not a valid RP ID).
 */
export function relyingParty(): RelyingParty {
  const site = new URL(siteOrigin())
  return { id: site.hostname, origin: site.origin, name: MFA_ISSUER }
}
