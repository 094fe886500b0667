import { describe, expect, it } from 'vitest'
import { forgetEveryDraft, unsentReports } from '../../composables/keptDraft'

describe('an unsent report', () => {
  // Kept in memory for the page's life (UploadReport); the next person after a sign-out in the same tab finds none.
  it('is forgotten with every draft as an account signs out', () => {
    unsentReports.set('upload-1:', { reason: 'spam', details: 'Written by the account that signed out' })
    forgetEveryDraft()
    expect(unsentReports.size).toBe(0)
  })
})
