import type { JobPost, PersonView } from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/**
 * A person as the features show and open them: the people service's view, or the stranger's
 * view that favorites and the moderation queue answer (CatalogPersonView), which has no
 * rating. (A post needs no such type: the catalog's post view is a JobPost.)
 */
export type ShownPerson = Omit<PersonView, 'rating'> & Partial<Pick<PersonView, 'rating'>>

const byId = (id: string) => encodeURIComponent(id)

/**
 * A post or a person by id: the two things every feature shows and opens. Slices keep only
 * their ids (STYLE.md: server data lives in RTK Query); what a list already answered is put
 * here with `postCached`/`personCached`, so showing it costs no request, and a reader that
 * finds nothing cached reads it from the service.
 */
export const entitiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPost: build.query<JobPost, string>({
      query: (id) => `/api/jobs/${byId(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Post', id }],
    }),
    /** GET /api/users/{id}: a PersonProfile; the cache also holds people other lists answered. */
    getPerson: build.query<ShownPerson, string>({
      query: (id) => `/api/users/${byId(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Person', id }],
    }),
  }),
})

export const { useGetPostQuery, useLazyGetPostQuery, useGetPersonQuery, useLazyGetPersonQuery } =
  entitiesApi

export const postCached = (post: JobPost) =>
  entitiesApi.util.upsertQueryEntries([{ endpointName: 'getPost', arg: post._id, value: post }])

export const personCached = (person: ShownPerson) =>
  entitiesApi.util.upsertQueryEntries([
    { endpointName: 'getPerson', arg: person._id, value: person },
  ])

type WithApi = Parameters<ReturnType<typeof entitiesApi.endpoints.getPost.select>>[0]

/** The cached post, if any (no request). */
export const selectCachedPost = (state: WithApi, id: string): JobPost | undefined =>
  entitiesApi.endpoints.getPost.select(id)(state).data

/** The cached person, if any (no request). */
export const selectCachedPerson = (state: WithApi, id: string): ShownPerson | undefined =>
  entitiesApi.endpoints.getPerson.select(id)(state).data
