import * as v from 'valibot'
import { ListEntrySchema, limitSchema, PageSchema } from './lists'

/** PUT and DELETE /api/upload/{id}/favourite: whether the caller now has it as a favourite, and how many accounts do. */
export const FavouriteResponseSchema = v.object({
  favourited: v.boolean(),
  favourites: v.pipe(v.number(), v.integer(), v.minValue(0)),
})

/** GET /api/profile/favourites and /api/user/{username}/favourites. */
export const FavouritesQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(12, 50),
})

/** A page of favourites, the newest favourite first. */
export const FavouritesListResponseSchema = v.object({
  uploads: v.array(ListEntrySchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

/** PUT /api/profile/preferences: every field optional, one left out stays as it is. */
export const PreferencesSchema = v.object({
  publicFavourites: v.optional(v.pipe(
    v.boolean('Invalid publicFavourites'),
    v.description('Whether others may list the account\'s favourites (GET /api/user/{username}/favourites and its feeds); on by default'),
  )),
}, 'Invalid preferences')

export const PreferencesResponseSchema = v.object({
  publicFavourites: v.boolean(),
})
