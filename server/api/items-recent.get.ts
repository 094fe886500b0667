import { featureList } from '../services/uploads-list'

/** GET /api/items-recent: the 6 newest public uploads (the caller's hidden tags left out). */
export default defineEventHandler(async event => featureList(useDB(), 'recent', await hiddenTagsOfCaller(event)))
