/** A route as Nitro's table writes it (`/api/upload/:id`) and one method it answers. */
export interface MethodRoute {
  route: string
  method: string
}

/**
 * The methods of each path, as Nitro's router picks a path's route: a static
 * segment wins over a parameter (`/api/comments/preview` is the `preview` route,
 * never `/api/comments/:id` with no id), so only the routes with the most static
 * segments, compared from the left, count. Summing the methods of every pattern
 * that matched put `DELETE` in the `Allow` of `/api/auth/tokens/generate`, and a
 * DELETE there reached the `:id` handler with no id.
 */
export function routeMethods(list: Iterable<MethodRoute>): (path: string) => Set<string> {
  const byRoute = new Map<string, { pattern: RegExp, rank: string, methods: Set<string> }>()
  for (const { route, method } of list) {
    const entry = byRoute.get(route) ?? {
      pattern: new RegExp(`^${route.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`),
      // One digit a segment, 0 static and 1 a parameter: the smallest rank is the router's pick.
      rank: route.split('/').map(segment => segment.startsWith(':') ? '1' : '0').join(''),
      methods: new Set<string>(),
    }
    entry.methods.add(method.toUpperCase())
    byRoute.set(route, entry)
  }
  const routes = [...byRoute.values()]
  return (path) => {
    const matched = routes.filter(r => r.pattern.test(path))
    const best = matched.reduce<string | undefined>((rank, r) => rank === undefined || r.rank < rank ? r.rank : rank, undefined)
    const allowed = new Set(matched.filter(r => r.rank === best).flatMap(r => [...r.methods]))
    if (allowed.has('GET')) allowed.add('HEAD')
    return allowed
  }
}
