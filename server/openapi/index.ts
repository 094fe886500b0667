import type { ApiPaths } from '../utils/openapi'
import accounts from './accounts'
import admin from './admin'
import duels from './duels'
import favourites from './favourites'
import feeds from './feeds'
import filters from './filters'
import lists from './lists'
import meta from './meta'
import myUploads from './my-uploads'
import oauth from './oauth'
import ownData from './own-data'
import passkeys from './passkeys'
import reports from './reports'
import sessions from './sessions'
import tags from './tags'
import uploadEdits from './upload-edits'
import uploads from './uploads'
import votes from './votes'

export { apiComponents } from './components'

/** Every resource's OpenAPI paths; a new resource file is added here. */
export const apiPaths: ApiPaths[] = [meta, accounts, sessions, passkeys, oauth, uploads, uploadEdits, lists, myUploads, filters, tags, votes, duels, reports, admin, ownData, feeds, favourites]
