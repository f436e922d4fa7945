import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { UPLOAD_CACHE_CONTROL } from '@marketplace/contracts/validation'

export interface StoredPicture {
  body: Buffer
  /** The type the pre-signed PUT enforced. */
  contentType: string
}

/** S3's answer for a key with no object: NotFound to a HEAD, NoSuchKey to a GET. */
export const isMissing = (error: unknown) => {
  const name = (error as { name?: string } | null)?.name
  return name === 'NotFound' || name === 'NoSuchKey'
}

/** The bytes and type of an object; null when there is none (never uploaded, or removed). */
export async function readPicture(
  client: S3Client,
  bucket: string,
  key: string,
): Promise<StoredPicture | null> {
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
    const bytes = await object.Body!.transformToByteArray()
    return {
      body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      contentType: object.ContentType ?? 'application/octet-stream',
    }
  } catch (error) {
    if (isMissing(error)) return null
    throw error
  }
}

/** True when an object is stored under the key. */
export async function pictureExists(
  client: S3Client,
  bucket: string,
  key: string,
): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
    return true
  } catch (error) {
    if (isMissing(error)) return false
    throw error
  }
}

/**
 * Stores a variant with the headers pictures are served with: its type and the one-year
 * cache policy (variant keys, like originals, are never reused for other content).
 */
export async function putVariant(
  client: S3Client,
  bucket: string,
  file: { key: string; contentType: string; body: Buffer },
): Promise<void> {
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: file.key,
      Body: file.body,
      ContentType: file.contentType,
      CacheControl: UPLOAD_CACHE_CONTROL,
    }),
  )
}
