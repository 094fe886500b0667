import type * as v from 'valibot'
import type { FavouriteResponseSchema, FavouritesListResponseSchema } from '#shared/schemas/favourites'

export type FavouriteState = v.InferOutput<typeof FavouriteResponseSchema>
export type FavouritesPage = v.InferOutput<typeof FavouritesListResponseSchema>

/**
 * Favourites (PUT/DELETE /api/upload/{id}/favourite, the lists) and the heart
 * every card and the upload page show. Answers are frozen and shared, so a
 * toggle is kept here by upload id and read over the answer (`stateOf`): shown
 * at once, set from the server's answer, taken back when the request fails.
 * A visitor who is not signed in is sent to sign in, and back.
 */
export const useFavourites = perApp(() => {
  const api = useApi()
  const { signedIn } = useAuth()
  const toast = useToast()
  const route = useRoute()
  const changed = reactive(new Map<string, FavouriteState>())
  const busy = reactive(new Set<string>())

  function stateOf(upload: { id: string, favourites: number, favourited?: boolean }): FavouriteState {
    return changed.get(upload.id) ?? { favourited: upload.favourited ?? false, favourites: upload.favourites }
  }

  async function toggle(upload: { id: string, favourites: number, favourited?: boolean }) {
    if (!signedIn.value) {
      await navigateTo({ path: '/login', query: { redirect: route.fullPath } })
      return
    }
    if (busy.has(upload.id)) return
    const before = stateOf(upload)
    const on = !before.favourited
    changed.set(upload.id, { favourited: on, favourites: Math.max(0, before.favourites + (on ? 1 : -1)) })
    busy.add(upload.id)
    try {
      changed.set(upload.id, await api<FavouriteState>(`/api/upload/${upload.id}/favourite`, { method: on ? 'PUT' : 'DELETE' }))
    }
    catch (error) {
      changed.set(upload.id, before)
      toast.show(`${on ? 'Adding the favourite' : 'Removing the favourite'} failed: ${errorMessage(error)}`)
    }
    finally {
      busy.delete(upload.id)
    }
  }

  const mine = (page = 1) => api<FavouritesPage>('/api/profile/favourites', { query: { page, limit: 12 } })
  const ofUser = (username: string, page = 1) => api<FavouritesPage>(`/api/user/${encodeURIComponent(username)}/favourites`, { query: { page, limit: 12 } })
  const setPublic = (publicFavourites: boolean) => api<{ publicFavourites: boolean }>('/api/profile/preferences', { method: 'PUT', body: { publicFavourites } })

  return { stateOf, toggle, busy, mine, ofUser, setPublic }
})
