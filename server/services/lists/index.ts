/**
 * The lists of uploads, one file per concern: entry.ts (an entry's columns,
 * row and mapping), filters.ts (what narrows a list), sorts.ts, paging.ts,
 * page.ts (a page with its total), tags.ts, periods.ts, newest.ts and words.ts (ways to
 * a page), and one file per list family (public.ts, filtered.ts, user.ts,
 * featured.ts). What the rest of the server uses is exported here.
 */
export { ENTRY_COLUMNS, toFullUpload, UPLOAD_COLUMNS, withTags, type ListEntry, type ListRow, type UploadRow } from './entry'
export { featureList, nextToVote, type AnonymousVisitor } from './featured'
export { listFilteredUploads, listMatchingUploads, onTagLinks } from './filtered'
export { filterKey, filtering, NO_FILTER, PUBLIC_VIEW, type CallerFilter, type ListView } from './filters'
export { pageWithTotal, totalAndPage } from './page'
export { hiddenTagsOf, profileFilters, ratingPreferencesOf, setProfileFilters } from './profile-filters'
export { pageWindow, type Paging } from './paging'
export { periodDays } from './periods'
export { listUploads } from './public'
export { USER_SORTS } from './sorts'
export { carryingTags, taggedIds, tagTermsIds, type LinkSearch, type TagTerms } from './tags'
export { listUserUploads } from './user'
export { walkedWord } from './words'
