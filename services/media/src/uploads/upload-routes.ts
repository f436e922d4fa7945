import type { FastifyRequest } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import {
  SECURED,
  UploadCompleteRequestSchema,
  UploadCompleteSchema,
  UploadSlotRequestSchema,
  UploadSlotSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { TooManyRequestsError, callerOf, type ServiceApp } from '@marketplace/service-kit'
import { completeUpload, type CompleteUploadDeps } from './complete-upload'
import {
  createUploadSlot,
  noFileError,
  type UploadPurpose,
  type UploadSlotDeps,
} from './upload-slot'

const ROUTES: Array<{ url: string; purpose: UploadPurpose; summary: string }> = [
  {
    url: '/api/upload',
    purpose: 'post',
    summary: "A pre-signed upload address for a post's picture",
  },
  {
    url: '/api/upload/user-profile-picture',
    purpose: 'profile',
    summary: "A pre-signed upload address for the caller's profile picture",
  },
]

/**
 * POST /api/upload and POST /api/upload/user-profile-picture, and
 * POST /api/upload/complete once the PUT is done.
 */
export const uploadRoutes =
  (deps: UploadSlotDeps & CompleteUploadDeps & { completesPerMinute: number }) =>
  async (app: ServiceApp) => {
    // Per-user budgets on the routes that ask for one (config.rateLimit), counted after the
    // token is checked (the preHandler hook runs after the route's authenticate), so the key
    // is the verified caller, never an address or a claim nobody checked. @fastify/rate-limit
    // is the gateway's limiter too; in memory, so each instance counts its own.
    await app.register(rateLimit, {
      global: false,
      hook: 'preHandler',
      keyGenerator: (request) => `user:${callerOf(request).userId}`,
      errorResponseBuilder: (_request, context) =>
        new TooManyRequestsError(
          `Too many pictures checked at once, retry in ${context.after}`,
          Math.ceil(context.ttl / 1000),
        ),
    })
    for (const { url, purpose, summary } of ROUTES) {
      app.post(
        url,
        {
          preHandler: app.authenticate,
          // The schema still documents and checks the body; a missing field is answered with
          // the product's "Please select a file first!" rather than the validator's words.
          attachValidation: true,
          schema: {
            tags: ['media'],
            summary,
            description:
              "Each slot counts towards the caller's daily upload quota (UPLOADS_PER_DAY, default 100, both routes together; 429 with Retry-After past it). PUT the file to presignedUrl with its Content-Type; a picture no post or profile names within 24 hours is removed.",
            security: SECURED,
            body: UploadSlotRequestSchema,
            response: { 200: UploadSlotSchema, ...errorResponses(400, 401, 429) },
          },
        },
        async (request) => {
          rejectInvalidBody(request)
          const { fileType, fileSize } = request.body
          return createUploadSlot(deps, purpose, callerOf(request).userId, {
            type: fileType,
            size: fileSize,
          })
        },
      )
    }

    app.post(
      '/api/upload/complete',
      {
        preHandler: app.authenticate,
        config: { rateLimit: { max: deps.completesPerMinute, timeWindow: 60_000 } },
        schema: {
          tags: ['media'],
          summary: 'Checks an uploaded picture and makes its sizes (card, details, avatar)',
          description: `Call after the PUT succeeded, before saving the key. Bytes that are not a picture of the declared type are removed: 400 "${Messages.upload.notAPicture}". A key that is not one of the caller's slots, or with nothing uploaded: 404. Calling again answers the same; calls at once for one key share one check. At most UPLOAD_COMPLETES_PER_MINUTE calls (default 20) per user and minute: 429 with Retry-After past it. A client that never calls it still gets the sizes made when a post or profile takes the picture up.`,
          security: SECURED,
          body: UploadCompleteRequestSchema,
          response: { 200: UploadCompleteSchema, ...errorResponses(400, 401, 404, 429) },
        },
      },
      async (request) => completeUpload(deps, callerOf(request).userId, request.body.objectKey),
    )
  }

function rejectInvalidBody(request: FastifyRequest): void {
  const failure = request.validationError
  if (!failure) return
  const first = failure.validation[0]
  const namesNoFile =
    first?.keyword === 'required' || (first?.keyword === 'type' && first.instancePath === '')
  // Anything else (a negative size, a fractional one) keeps the shared handler's answer.
  throw namesNoFile ? noFileError() : failure
}
