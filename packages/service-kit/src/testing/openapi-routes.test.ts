import { documentationProblems, type OpenApiDocument } from './openapi-routes'

const described = {
  tags: ['jobs'],
  summary: 'Read a post',
  security: [{ bearerAuth: [] }],
  responses: {
    200: { content: { 'application/json': { schema: { type: 'object' } } } },
    401: { content: { 'application/json': { schema: { type: 'object' } } } },
  },
}
const expected = { tag: 'jobs', security: [{ bearerAuth: [] }] }

describe('documentationProblems', () => {
  it('finds nothing wrong with a route documented in full and registered', () => {
    const document: OpenApiDocument = {
      paths: { '/api/jobs/{id}': { get: described } },
      'x-routes': [{ method: 'GET', url: '/api/jobs/:id' }],
    }
    expect(documentationProblems(document, [['get', '/api/jobs/{id}', 200]], expected)).toEqual([])
  })

  it('names a missing route, a wrong tag, a missing 401 and a registered route left off the list', () => {
    const document: OpenApiDocument = {
      paths: {
        '/api/jobs/{id}': {
          get: { ...described, tags: ['posts'], responses: { 200: described.responses[200] } },
        },
      },
      'x-routes': [
        { method: 'GET', url: '/api/jobs/:id' },
        { method: 'DELETE', url: '/api/jobs/:id' },
      ],
    }
    expect(
      documentationProblems(
        document,
        [
          ['get', '/api/jobs/{id}', 200],
          ['post', '/api/jobs', 201],
        ],
        expected,
      ),
    ).toEqual([
      'GET /api/jobs/{id}: tags ["posts"]',
      'GET /api/jobs/{id}: no 401',
      'POST /api/jobs: not documented',
      'delete /api/jobs/{id}: registered but not in the list',
    ])
  })
})
