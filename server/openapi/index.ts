import type { ApiPaths } from '../utils/openapi'
import accounts from './accounts'
import meta from './meta'

/** Every resource's OpenAPI paths; a new resource file is added here. */
export const apiPaths: ApiPaths[] = [meta, accounts]
