import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3'
import { deleteObjects } from './delete-objects'

/**
 * Deletes every object under `prefix`, a listing page (at most 1,000 keys) at a time, and
 * answers how many went. Deleting what is already gone is not an error, so running it again
 * (a redelivered event) is harmless.
 */
export async function deleteUnderPrefix(
  client: S3Client,
  bucket: string,
  prefix: string,
): Promise<number> {
  let deleted = 0
  for (;;) {
    // Always the first page: the objects of the previous page are gone by now.
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))
    const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []))
    if (keys.length === 0) return deleted
    await deleteObjects(client, bucket, keys)
    deleted += keys.length
  }
}
