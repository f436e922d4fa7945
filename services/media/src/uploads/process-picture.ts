import type { FastifyBaseLogger } from 'fastify'
import { allVariantKeys, isUploadKey } from '@marketplace/contracts/marketplace'
import {
  NotAPictureError,
  inspectPicture,
  makePictureFiles,
  type PictureFacts,
  type VariantFile,
} from '../pictures/make-variants'
import type { StoredPicture } from '../storage/picture-objects'
import { stagingKeyOf } from '../storage/staging-keys'

export type PictureOutcome =
  | ({ outcome: 'made' | 'present'; variants: string[] } & PictureFacts)
  | { outcome: 'refused'; reason: string }
  | { outcome: 'missing' }

/**
 * Checks an uploaded picture and publishes it (docs/media.md "Variants"): the bytes the
 * browser put under the staging key (staging-keys.ts) are decoded once, the original is
 * re-encoded without its metadata under the public key and its sizes made beside it, then the
 * staging object goes. Called right after the upload (POST /api/upload/complete) and again
 * when a post or a profile takes the picture up, for clients that never call complete.
 *
 * Idempotent: the public original is written last, so its presence means every size is
 * there, and a later call reads nothing from staging (bytes put there after the check are
 * never served). Calls for one key at once share one run (single flight): fifty parallel
 * completes of one picture decode it once, not fifty times. Bytes that are not a picture of
 * the declared type are removed with whatever was made of them.
 */
export function createProcessPicture(deps: {
  readPicture(key: string): Promise<StoredPicture | null>
  pictureExists(key: string): Promise<boolean>
  putVariant(file: VariantFile): Promise<void>
  deleteObjects(keys: readonly string[]): Promise<void>
  logger: FastifyBaseLogger
}) {
  const running = new Map<string, { run: Promise<PictureOutcome>; withFacts: boolean }>()

  async function publish(key: string, wantFacts: boolean): Promise<PictureOutcome> {
    const variants = allVariantKeys(key)
    if (await deps.pictureExists(key)) {
      if (!wantFacts) return { outcome: 'present', variants, width: 0, height: 0 }
      const published = await deps.readPicture(key)
      if (published) {
        return {
          outcome: 'present',
          variants,
          ...(await inspectPicture(published.body, published.contentType)),
        }
      }
    }
    const staged = await deps.readPicture(stagingKeyOf(key))
    if (!staged) return { outcome: 'missing' }
    try {
      const facts = await inspectPicture(staged.body, staged.contentType)
      const files = await makePictureFiles(staged.body, key)
      for (const file of files.variants) await deps.putVariant(file)
      await deps.putVariant(files.original)
      await deps.deleteObjects([stagingKeyOf(key)])
      deps.logger.debug({ key, variants: files.variants.length }, 'picture published')
      return { outcome: 'made', variants, ...facts }
    } catch (error) {
      if (!(error instanceof NotAPictureError)) throw error
      await deps.deleteObjects([stagingKeyOf(key), key, ...variants])
      deps.logger.warn({ key, reason: error.message }, 'an upload that is not a picture removed')
      return { outcome: 'refused', reason: error.message }
    }
  }

  /**
   * `facts: false` (a post or profile naming a picture again): when the picture is published,
   * it is not downloaded just to be measured; the answer's size is then 0 x 0.
   */
  return async function processPicture(
    key: string,
    { facts: wantFacts = true }: { facts?: boolean } = {},
  ): Promise<PictureOutcome> {
    if (!isUploadKey(key)) return { outcome: 'missing' }
    const pending = running.get(key)
    if (pending) {
      const shared = await pending.run
      // A run for an attachment does not measure a picture already published; a caller that
      // needs the size then measures it itself, below.
      const unmeasured = shared.outcome === 'present' && !pending.withFacts
      if (!wantFacts || !unmeasured) return shared
    }
    const again = running.get(key)
    if (again && again !== pending) return again.run
    const run = publish(key, wantFacts).finally(() => running.delete(key))
    running.set(key, { run, withFacts: wantFacts })
    return run
  }
}

export type ProcessPicture = ReturnType<typeof createProcessPicture>
