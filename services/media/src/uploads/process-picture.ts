import type { FastifyBaseLogger } from 'fastify'
import { allVariantKeys, isUploadKey } from '@marketplace/contracts/marketplace'
import {
  NotAPictureError,
  inspectPicture,
  makeVariants,
  type PictureFacts,
  type VariantFile,
} from '../pictures/make-variants'
import type { StoredPicture } from '../storage/picture-objects'

export type PictureOutcome =
  | ({ outcome: 'made' | 'present'; variants: string[] } & PictureFacts)
  | { outcome: 'refused'; reason: string }
  | { outcome: 'missing' }

/**
 * Checks an uploaded picture and makes its variants (docs/media.md "Variants"). Called right
 * after the upload (POST /api/upload/complete) and again when a post or a profile takes the
 * picture up, for clients that never call complete. Idempotent: the variants are written in
 * a fixed order, so the last one present means all are; two runs at once write the same bytes.
 * Bytes that are not a picture of the declared type are removed with whatever was made of them.
 */
export function createProcessPicture(deps: {
  readPicture(key: string): Promise<StoredPicture | null>
  pictureExists(key: string): Promise<boolean>
  putVariant(file: VariantFile): Promise<void>
  deleteObjects(keys: readonly string[]): Promise<void>
  logger: FastifyBaseLogger
}) {
  /**
   * `facts: false` (a post or profile naming a picture again): when the variants are there,
   * the original is not downloaded just to be measured; the answer's size is then 0 x 0.
   */
  return async function processPicture(
    key: string,
    { facts: wantFacts = true }: { facts?: boolean } = {},
  ): Promise<PictureOutcome> {
    if (!isUploadKey(key)) return { outcome: 'missing' }
    const variants = allVariantKeys(key)
    const present = await deps.pictureExists(variants.at(-1)!)
    if (present && !wantFacts) return { outcome: 'present', variants, width: 0, height: 0 }
    const original = await deps.readPicture(key)
    if (!original) return { outcome: 'missing' }
    try {
      const facts = await inspectPicture(original.body, original.contentType)
      if (present) return { outcome: 'present', variants, ...facts }
      const files = await makeVariants(original.body, key)
      for (const file of files) await deps.putVariant(file)
      deps.logger.debug({ key, variants: files.length }, 'picture variants made')
      return { outcome: 'made', variants, ...facts }
    } catch (error) {
      if (!(error instanceof NotAPictureError)) throw error
      await deps.deleteObjects([key, ...variants])
      deps.logger.warn({ key, reason: error.message }, 'an upload that is not a picture removed')
      return { outcome: 'refused', reason: error.message }
    }
  }
}

export type ProcessPicture = ReturnType<typeof createProcessPicture>
