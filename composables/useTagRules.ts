import type * as v from 'valibot'
import type { AddAliasResponseSchema, AddImplicationResponseSchema, TagDetailResponseSchema, TagRulesResponseSchema } from '#shared/schemas/tags'

export type TagDetail = v.InferOutput<typeof TagDetailResponseSchema>['tag']

/** Tag aliases and implications: a tag's own (anyone) and every rule (admins). */
export function useTagRules() {
  const api = useApi()
  const tag = (slug: string) => api<v.InferOutput<typeof TagDetailResponseSchema>>(`/api/tags/${encodeURIComponent(slug)}`)
  const rules = () => api<v.InferOutput<typeof TagRulesResponseSchema>>('/api/admin/tags/rules')
  const addAlias = (from: string, to: string) =>
    api<v.InferOutput<typeof AddAliasResponseSchema>>('/api/admin/tags/aliases', { method: 'POST', body: { from, to } })
  const removeAlias = (from: string) => api(`/api/admin/tags/aliases/${encodeURIComponent(from)}`, { method: 'DELETE' })
  const addImplication = (tag: string, implies: string) =>
    api<v.InferOutput<typeof AddImplicationResponseSchema>>('/api/admin/tags/implications', { method: 'POST', body: { tag, implies } })
  const removeImplication = (tag: string, implies: string) =>
    api(`/api/admin/tags/implications/${encodeURIComponent(tag)}/${encodeURIComponent(implies)}`, { method: 'DELETE' })
  return { tag, rules, addAlias, removeAlias, addImplication, removeImplication }
}
