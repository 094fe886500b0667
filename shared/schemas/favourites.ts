import * as v from 'valibot'
import { RATING_CHOICES } from '../utils/content-rating'
import { ListEntrySchema, limitSchema, PageSchema, RatingFilterSchema } from './lists'

/** PUT and DELETE /api/upload/{id}/favourite: whether the caller now has it as a favourite, and how many accounts do. */
export const FavouriteResponseSchema = v.object({
  favourited: v.boolean(),
  favourites: v.pipe(v.number(), v.integer(), v.minValue(0)),
})

/** GET /api/profile/favourites and /api/user/{username}/favourites. */
export const FavouritesQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(12, 50),
  rating: RatingFilterSchema,
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
  explicit: v.optional(v.pipe(
    v.picklist(RATING_CHOICES, 'Invalid explicit'),
    v.description('What the account\'s lists and pages do with explicit uploads: show, blur (default; the page blurs them behind a Show control) or hide (left out of its lists)'),
  )),
  suggestive: v.optional(v.pipe(
    v.picklist(RATING_CHOICES, 'Invalid suggestive'),
    v.description('The same for suggestive uploads: show (default), blur or hide'),
  )),
}, 'Invalid preferences')

export const PreferencesResponseSchema = v.object({
  publicFavourites: v.boolean(),
  explicit: v.picklist(RATING_CHOICES),
  suggestive: v.picklist(RATING_CHOICES),
})
