import { TagSlugParamsSchema } from '#shared/schemas/tags'
import { tagDetail } from '../../services/tag-rules'

/** GET /api/tags/{slug}: a tag (an alias: its tag) with its count, aliases and implications. */
export default defineEventHandler((event) => {
  const { slug } = paramsValidated(event, TagSlugParamsSchema)
  return tagDetail(useDB(), slug, dataVersionOf(event))
})
