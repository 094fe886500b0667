import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { outboxFiles, resetTokenOf, verificationTokenOf, waitFor, waitForOutboxMail } from '../support/accounts'
import { startServer, type RunningServer } from '../support/server'

interface Received { from: string, to: string[], raw: string }

describe('password reset mail over SMTP (NUXT_SMTP_URL)', () => {
  let smtp: SMTPServer
  let server: RunningServer
  const inbox: Received[] = []
  let notify: (() => void) | undefined
  /** While set, a new SMTP connection gets no greeting, so no mail can be sent; counted in `connections`. */
  let greetingHeld: Promise<void> | undefined
  let connections = 0

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect(_session, callback) {
        connections++
        if (greetingHeld) void greetingHeld.then(() => callback())
        else callback()
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          inbox.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map(r => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          })
          notify?.()
          callback()
        })
      },
    })
    await new Promise<void>(resolve => smtp.listen(0, '127.0.0.1', resolve))
    const { port } = smtp.server.address() as AddressInfo
    server = await startServer({ NUXT_SMTP_URL: `smtp://127.0.0.1:${port}`, NUXT_MAIL_FROM: 'Reset Desk <desk@e2e.test>' })
  })

  afterAll(async () => {
    await server?.stop()
    await new Promise<void>(resolve => smtp.close(() => resolve()))
  })

  const nextMail = () => new Promise<Received>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no mail within 10 s')), 10_000)
    notify = () => {
      clearTimeout(timer)
      resolve(inbox.shift()!)
    }
  })

  /** Registers an account and takes its verification mail off the inbox, so the next mail is the test's own. */
  async function registered() {
    const verification = nextMail()
    const user = await registerUser({}, server.url)
    const mail = await verification
    expect(mail.to).toEqual([user.email])
    return { user, verificationToken: verificationTokenOf(mail.raw) }
  }

  it('delivers the verification mail at registration, whose token verifies the address', async () => {
    const { user, verificationToken } = await registered()
    const verified = await api('/api/auth/verify-email', { method: 'POST', body: { token: verificationToken }, baseURL: server.url })
    expect(verified.status).toBe(200)
    expect((await api('/api/profile', { token: user.token, baseURL: server.url })).body.user.emailVerified).toBe(true)
  })

  it('delivers the reset mail to the listener, and its token resets the password', async () => {
    const { user } = await registered()
    const arriving = nextMail()
    const response = await api('/api/auth/forgot-password', { method: 'POST', body: { email: user.email }, baseURL: server.url })
    expect(response.status).toBe(200)
    const mail = await arriving
    expect(mail.from).toBe('desk@e2e.test')
    expect(mail.to).toEqual([user.email])
    expect(mail.raw).toMatch(/Content-Type: text\/plain/)
    expect(mail.raw).toMatch(/Content-Type: text\/html/)
    const token = resetTokenOf(mail.raw)
    const reset = await api('/api/auth/reset-password', { method: 'POST', body: { token, password: 'via smtp reset' }, baseURL: server.url })
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ message: 'Password has been reset' })
    expect(server.output()).not.toContain(token)
  })

  it('answers a known and an unknown address alike, before the look-up and the mail', async () => {
    const { user } = await registered()
    let release!: () => void
    greetingHeld = new Promise<void>((resolve) => {
      release = resolve
    })
    const before = connections
    try {
      const forgot = (email: string) => Promise.race([
        api('/api/auth/forgot-password', { method: 'POST', body: { email }, baseURL: server.url }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer while the mail could not be sent')), 10_000)),
      ])
      // The SMTP server sends no greeting, so the mail cannot go out: both answers must come anyway.
      const known = await forgot(user.email)
      const unknown = await forgot(`nobody-${user.id}@e2e.test`)
      expect(known.status).toBe(200)
      expect(known.body).toEqual({ message: 'If an account with that email exists, a password reset link has been sent' })
      expect(unknown.status).toBe(known.status)
      expect(unknown.body).toEqual(known.body)
      const headers = (response: typeof known) => [...response.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id')
      expect(headers(unknown)).toEqual(headers(known))
      // The mail for the known address is being sent after its answer...
      await waitFor(() => connections > before, 'the SMTP connection of the reset mail')
      expect(inbox).toEqual([])
    }
    finally {
      greetingHeld = undefined
      release()
    }
    // ...and still arrives once the server greets.
    const mail = await nextMail()
    expect(mail.to).toEqual([user.email])
    expect(resetTokenOf(mail.raw)).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('password reset mail without SMTP', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.stop())

  it('writes the .eml to <data>/outbox and logs the link', async () => {
    const user = await registerUser({}, server.url)
    const before = outboxFiles(server.dataDir)
    await api('/api/auth/forgot-password', { method: 'POST', body: { email: user.email }, baseURL: server.url })
    const { file, raw } = await waitForOutboxMail(server.dataDir, user.email, before, 'reset')
    const token = resetTokenOf(raw)
    expect(file).toMatch(/\.eml$/)
    const line = `[mail] password reset for ${user.email}: ${server.url}/reset-password?token=${token}`
    await waitFor(() => server.output().includes(line), 'the logged link')
    expect(server.output()).toContain(line)
  })
})
