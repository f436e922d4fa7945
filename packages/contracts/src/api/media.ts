// The media service's HTTP contract: request and response schemas of its routes.
import { CloneType, Type, type Static } from '@sinclair/typebox'
import { PICTURE_MAX_BYTES } from '../marketplace/limits'
import { Messages } from '../validation/messages'
import { UploadRequestSchema } from '../validation/upload'

const { fileName, fileType, fileSize } = UploadRequestSchema.properties

/**
 * Body of POST /api/upload and POST /api/upload/user-profile-picture:
 * the validation rules' own schema (validation/upload.ts), described. The type and the size are
 * checked by the route against each purpose's rules, so their messages are the product's.
 */
export const UploadSlotRequestSchema = Type.Object(
  {
    fileName: CloneType(fileName, {
      description: `The picked file's name (not used for the stored key); missing: 400 "${Messages.upload.noFile}"`,
      examples: ['sofa.png'],
    }),
    fileType: CloneType(fileType, {
      description: `The MIME type the browser will PUT. Posts: image/jpeg, image/png or image/jpg, else 400 "${Messages.upload.invalidType}"; profile pictures also image/webp and image/gif`,
      examples: ['image/png'],
    }),
    fileSize: CloneType(fileSize, {
      description: `Bytes, at most ${PICTURE_MAX_BYTES}, else 400 "${Messages.upload.tooLarge}"`,
      examples: [482133],
    }),
  },
  { additionalProperties: false },
)
export type UploadSlotRequest = Static<typeof UploadSlotRequestSchema>

/** A pre-signed address for one PUT of the described file, and the key to store afterwards. */
export const UploadSlotSchema = Type.Object(
  {
    presignedUrl: Type.String({
      description:
        'PUT the file here within minutes, with the declared Content-Type (and a body of the declared size)',
    }),
    objectKey: Type.String({
      description:
        "Where the picture is stored, under the caller's own prefix: save it as the post's jobPicture or the profilePicture",
      examples: ['jobImages/665f1c2e9b1d4a0012345678/3f2b8a1e-7c4d-4e5f-9a6b-1c2d3e4f5a6b.png'],
    }),
  },
  { additionalProperties: false },
)
export type UploadSlot = Static<typeof UploadSlotSchema>

/** Body of POST /api/upload/complete: the slot's key, once the PUT has succeeded. */
export const UploadCompleteRequestSchema = Type.Object(
  {
    objectKey: Type.String({
      minLength: 1,
      maxLength: 300,
      description: "The objectKey of a slot the caller was given, after the file's PUT",
      examples: ['jobImages/665f1c2e9b1d4a0012345678/3f2b8a1e-7c4d-4e5f-9a6b-1c2d3e4f5a6b.png'],
    }),
  },
  { additionalProperties: false },
)
export type UploadCompleteRequest = Static<typeof UploadCompleteRequestSchema>

/** The checked picture and the sizes made of it (docs/media.md "Variants"). */
export const UploadCompleteSchema = Type.Object(
  {
    objectKey: Type.String({ description: 'The original, unchanged' }),
    width: Type.Integer({ minimum: 1, description: "The original's width in pixels" }),
    height: Type.Integer({ minimum: 1, description: "The original's height in pixels" }),
    variants: Type.Array(Type.String(), {
      description:
        'Keys of the sizes made (WebP, and the original format as a fallback), beside the original in the public bucket',
    }),
  },
  { additionalProperties: false },
)
export type UploadComplete = Static<typeof UploadCompleteSchema>
