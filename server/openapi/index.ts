import type { ApiPaths } from '../utils/openapi'
import meta from './meta'
import uploads from './uploads'

/** Every resource's OpenAPI paths; a new resource file is added here. */
export const apiPaths: ApiPaths[] = [meta, uploads]
