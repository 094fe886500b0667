import type { ApiPaths } from '../utils/openapi'
import admin from './admin'
import lists from './lists'
import meta from './meta'
import tags from './tags'
import votes from './votes'

/** Every resource's OpenAPI paths; a new resource file is added here. */
export const apiPaths: ApiPaths[] = [meta, lists, tags, votes, admin]
