import { featureList } from '../services/uploads-list'

/** GET /api/items-recent: the 6 newest public uploads. */
export default defineEventHandler(() => featureList(useDB(), 'recent'))
