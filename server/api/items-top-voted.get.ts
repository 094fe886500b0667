import { featureList } from '../services/uploads-list'

/** GET /api/items-top-voted: the 6 public uploads with the most upvotes. */
export default defineEventHandler(() => featureList(useDB(), 'top-voted'))
