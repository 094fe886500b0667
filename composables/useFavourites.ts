import type * as v from 'valibot'
import type { FavouriteResponseSchema, FavouritesListResponseSchema } from '#shared/schemas/favourites'

export type FavouriteState = v.InferOutput<typeof FavouriteResponseSchema>
export type FavouritesPage = v.InferOutput<typeof FavouritesListResponseSchema>

/**
 * Favourites (PUT/DELETE /api/upload/{id}/favourite, the lists) and the heart
 * every card and the upload page show. Answers are frozen and shared, so a
 * toggle is kept here by upload id and read over the answer (`stateOf`): shown
 * at once, set from the server's answer, taken back when the request fails.
 * Presses while a request is on its way are kept and sent after it, in order.
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

  /** The state the user last asked for, per upload, while a request for it is on its way. */
  const wanted = new Map<string, boolean>()

  async function toggle(upload: { id: string, favourites: number, favourited?: boolean }) {
    if (!signedIn.value) {
      await navigateTo({ path: '/login', query: { redirect: route.fullPath } })
      return
    }
    const before = stateOf(upload)
    const on = !before.favourited
    changed.set(upload.id, { favourited: on, favourites: Math.max(0, before.favourites + (on ? 1 : -1)) })
    wanted.set(upload.id, on)
    // A press while a request is on its way is kept, not dropped: the loop below sends it next.
    if (busy.has(upload.id)) return
    busy.add(upload.id)
    let confirmed = before
    try {
      while (wanted.get(upload.id) !== confirmed.favourited) {
        const next = wanted.get(upload.id) === true
        try {
          confirmed = await api<FavouriteState>(`/api/upload/${upload.id}/favourite`, { method: next ? 'PUT' : 'DELETE' })
        }
        catch (error) {
          toast.show(`${next ? 'Adding the favourite' : 'Removing the favourite'} failed: ${errorMessage(error)}`)
          break
        }
      }
      changed.set(upload.id, confirmed)
    }
    finally {
      busy.delete(upload.id)
      wanted.delete(upload.id)
    }
  }

  const mine = (page = 1) => api<FavouritesPage>('/api/profile/favourites', { query: { page, limit: 12 } })
  const ofUser = (username: string, page = 1) => api<FavouritesPage>(`/api/user/${encodeURIComponent(username)}/favourites`, { query: { page, limit: 12 } })
  const setPublic = (publicFavourites: boolean) => api<{ publicFavourites: boolean }>('/api/profile/preferences', { method: 'PUT', body: { publicFavourites } })

  return { stateOf, toggle, busy, mine, ofUser, setPublic }
})
