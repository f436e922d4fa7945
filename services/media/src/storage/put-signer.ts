import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { UPLOAD_CACHE_CONTROL } from '@marketplace/contracts/validation'

export interface PutToSign {
  key: string
  contentType: string
  contentLength: number
}

export type PutSigner = (put: PutToSign) => Promise<string>

/**
 * Signs a single PUT of one object. Content-Type, Content-Length and Cache-Control are in
 * the signed headers, so storage itself refuses a body of another type or size, or an upload
 * that would be cached differently: the service checked the browser's description of the
 * file, and the signature holds the browser to it. (The SDK's presigner leaves content-type
 * and cache-control unsigned unless they are named in `signableHeaders`.)
 */
export function createPutSigner(
  client: S3Client,
  options: { bucket: string; expiresInSeconds: number },
): PutSigner {
  return (put) =>
    getSignedUrl(
      client,
      new PutObjectCommand({
        Bucket: options.bucket,
        Key: put.key,
        ContentType: put.contentType,
        ContentLength: put.contentLength,
        CacheControl: UPLOAD_CACHE_CONTROL,
      }),
      {
        expiresIn: options.expiresInSeconds,
        signableHeaders: new Set(['content-type', 'content-length', 'cache-control']),
      },
    )
}
