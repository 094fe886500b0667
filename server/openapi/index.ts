import type { ApiPaths } from '../utils/openapi'
import accounts from './accounts'
import meta from './meta'
import oauth from './oauth'

/** Every resource's OpenAPI paths; a new resource file is added here. */
export const apiPaths: ApiPaths[] = [meta, accounts, oauth]
