/**
 * The settings a start checks first (docs/deployment.md, Configuration): a
 * value typed wrong ends the start with one line naming its variable, where
 * it used to give a server that answered 500 to every request (a rate limit
 * of `abc`) or quietly turned a protection off or on (`NUXT_TRUST_PROXY=no`
 * read as yes, a search budget of `200ms` as none). Nitro hands an
 * environment value over as JSON when it reads as JSON (`true`, `5`) and as
 * text otherwise.
 */

/** On/off settings: true or false (1 or 0), any case; nothing else. */
const FLAG = /^(?:true|false|1|0)$/i

/** Whether an on/off setting is on; only after checkSettings accepted it. */
export function settingOn(value: unknown): boolean {
  return /^(?:true|1)$/i.test(String(value).trim())
}

type Config = ReturnType<typeof useRuntimeConfig>

/** NUXT_ and the key in upper snake case, as Nitro reads it: `rateLimit.anonVote.max` → NUXT_RATE_LIMIT_ANON_VOTE_MAX. */
export function variableOf(path: string): string {
  return `NUXT_${path.replace(/\./g, '_').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`
}

function flag(path: string, value: unknown): void {
  if (!FLAG.test(String(value).trim())) throw new Error(`${variableOf(path)} must be true or false, not "${String(value)}"`)
}

function whole(path: string, value: unknown, min: number, max: number): void {
  const text = String(value).trim()
  const number = Number(text)
  if (!/^\d+$/.test(text) || number < min || number > max) throw new Error(`${variableOf(path)} must be a whole number from ${min} to ${max}, not "${String(value)}"`)
}

function url(path: string, value: unknown, protocols: string[], empty: string): void {
  const text = String(value ?? '').trim()
  if (!text) {
    if (empty) return
    throw new Error(`${variableOf(path)} must be set`)
  }
  if (!protocols.some(protocol => text.toLowerCase().startsWith(`${protocol}//`))) {
    throw new Error(`${variableOf(path)} must start with ${protocols.map(protocol => `${protocol}//`).join(' or ')}${empty}`)
  }
  if (!URL.canParse(text)) throw new Error(`${variableOf(path)} is not a valid address (a port over 65535, a space, …)`)
}

/** Throws, naming the variable, for the first setting that cannot be what it says. */
export function checkSettings(config: Config = useRuntimeConfig()): void {
  flag('trustProxy', config.trustProxy)
  flag('apiFastPath', config.apiFastPath)
  flag('imageFetchAllowPrivate', config.imageFetchAllowPrivate)
  flag('rateLimit.enabled', config.rateLimit.enabled)
  flag('s3.forcePathStyle', config.s3.forcePathStyle)
  whole('databasePoolMax', config.databasePoolMax, 1, 1000)
  whole('searchBudgetMs', config.searchBudgetMs, 0, 60_000)
  for (const [category, limit] of Object.entries(config.rateLimit)) {
    if (category === 'enabled') continue
    const { max, windowSeconds } = limit as { max: unknown, windowSeconds: unknown }
    whole(`rateLimit.${category}.max`, max, 1, 1_000_000)
    whole(`rateLimit.${category}.windowSeconds`, windowSeconds, 1, 31 * 24 * 60 * 60)
  }
  url('public.siteUrl', config.public.siteUrl, ['http:', 'https:'], '')
  url('databaseUrl', config.databaseUrl, ['postgres:', 'postgresql:'], ' (or be empty, for SQLite)')
  url('redisUrl', config.redisUrl, ['redis:', 'rediss:'], ' (or be empty, for none)')
  url('smtpUrl', config.smtpUrl, ['smtp:', 'smtps:'], ' (or be empty, for the outbox)')
}
