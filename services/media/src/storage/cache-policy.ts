import {
  CopyObjectCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3'
import { UPLOAD_CACHE_CONTROL } from '@marketplace/contracts/validation'
import { isMissing } from './picture-objects'

export type CachePolicyOutcome = 'applied' | 'unchanged' | 'missing'

/**
 * Browsers read pictures straight from the bucket, so the headers S3 stores with an object
 * are the ones they get. The upload itself signs only the type and the size (a plain client
 * sends nothing else), so once a post or a profile takes a picture up, the service rewrites
 * the object's headers in place: the one-year cache policy (keys are never
 * reused), and nothing else the uploader may have sent along (Content-Disposition,
 * Content-Encoding, x-amz-meta-*). The type stays the one the signature enforced.
 */
export async function applyPictureCachePolicy(
  client: S3Client,
  bucket: string,
  key: string,
): Promise<CachePolicyOutcome> {
  let head: HeadObjectCommandOutput
  try {
    head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
  } catch (error) {
    // The slot was never used, or the picture is gone (its user purged): nothing to serve.
    if (isMissing(error)) return 'missing'
    throw error
  }
  if (isServedAsWanted(head)) return 'unchanged'
  await client.send(
    new CopyObjectCommand({
      Bucket: bucket,
      Key: key,
      CopySource: `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
      // A PUT landing between the HEAD and the copy fails it: the event is retried on the
      // new object rather than giving it the old one's type.
      CopySourceIfMatch: head.ETag,
      MetadataDirective: 'REPLACE',
      ContentType: head.ContentType,
      CacheControl: UPLOAD_CACHE_CONTROL,
    }),
  )
  return 'applied'
}

function isServedAsWanted(head: HeadObjectCommandOutput): boolean {
  return (
    head.CacheControl === UPLOAD_CACHE_CONTROL &&
    !head.ContentDisposition &&
    !head.ContentEncoding &&
    !head.ContentLanguage &&
    !head.ExpiresString &&
    Object.keys(head.Metadata ?? {}).length === 0
  )
}
