import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { UploadRequestSchema } from '@marketplace/contracts/validation'
import { callerOf, type createServiceApp } from '@marketplace/service-kit'
import { createUploadSlot, noFileError, type UploadPurpose } from '../uploads/upload-slot'

type MediaApp = Awaited<ReturnType<typeof createServiceApp>>

const UploadSlotSchema = Type.Object({
  presignedUrl: Type.String(),
  objectKey: Type.String(),
})

const ErrorSchema = Type.Object({ message: Type.String(), code: Type.String() })

/** POST /api/upload (spec 1 §7) and POST /api/upload/user-profile-picture (spec 2 §7). */
export async function uploadRoutes(app: MediaApp) {
  const routes: Array<[string, UploadPurpose]> = [
    ['/api/upload', 'post'],
    ['/api/upload/user-profile-picture', 'profile'],
  ]
  for (const [url, purpose] of routes) {
    app.post(
      url,
      {
        preHandler: app.authenticate,
        // The schema still documents and checks the body; a missing field is answered with
        // the product's "Please select a file first!" rather than the validator's words.
        attachValidation: true,
        schema: {
          body: UploadRequestSchema,
          response: { 200: UploadSlotSchema, 400: ErrorSchema, 401: ErrorSchema },
        },
      },
      async (request) => {
        rejectInvalidBody(request)
        const { fileType, fileSize } = request.body
        return createUploadSlot(app.storage.signPut, purpose, callerOf(request).userId, {
          type: fileType,
          size: fileSize,
        })
      },
    )
  }
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
