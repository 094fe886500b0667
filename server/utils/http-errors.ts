// The error helpers live below the services (services/errors.ts); handlers
// and middleware get them auto-imported from here.
export { apiError, badRequest, conflict, forbidden, notFound, reasonPhrase, REASON_PHRASES, unauthorized } from '../services/errors'
