import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { outboxFiles, resetTokenOf, waitFor, waitForOutboxMail } from '../support/accounts'
import { startServer, type RunningServer } from '../support/server'

interface Received { from: string, to: string[], raw: string }

describe('password reset mail over SMTP (NUXT_SMTP_URL)', () => {
  let smtp: SMTPServer
  let server: RunningServer
  const inbox: Received[] = []
  let notify: (() => void) | undefined

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
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

  it('delivers the reset mail to the listener, and its token resets the password', async () => {
    const user = await registerUser({}, server.url)
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
    const { file, raw } = await waitForOutboxMail(server.dataDir, user.email, before)
    const token = resetTokenOf(raw)
    expect(file).toMatch(/\.eml$/)
    const line = `[mail] password reset for ${user.email}: ${server.url}/reset-password?token=${token}`
    await waitFor(() => server.output().includes(line), 'the logged link')
    expect(server.output()).toContain(line)
  })
})
