import { DeleteObjectsCommand, type S3Client } from '@aws-sdk/client-s3'

/** S3 deletes at most this many keys per request. */
const KEYS_PER_REQUEST = 1000

/**
 * Deletes the objects named, up to 1,000 per request. A key that names nothing is not an
 * error (S3 answers it as deleted), so running it again is harmless.
 */
export async function deleteObjects(
  client: S3Client,
  bucket: string,
  keys: readonly string[],
): Promise<void> {
  for (let start = 0; start < keys.length; start += KEYS_PER_REQUEST) {
    const batch = keys.slice(start, start + KEYS_PER_REQUEST).map((Key) => ({ Key }))
    const result = await client.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch, Quiet: true } }),
    )
    if (result.Errors && result.Errors.length > 0) {
      const first = result.Errors[0]!
      throw new Error(`S3 refused to delete ${first.Key}: ${first.Code} ${first.Message}`)
    }
  }
}
