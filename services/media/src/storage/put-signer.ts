import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'

export interface PutToSign {
  key: string
  contentType: string
  contentLength: number
}

export type PutSigner = (put: PutToSign) => Promise<string>

/**
 * Signs a single PUT of one object. Content-Type and Content-Length are in the signed
 * headers, so storage itself refuses a body of another type or size: the service checked the
 * browser's description of the file, and the signature holds the browser to it. (The SDK's
 * presigner leaves content-type unsigned unless it is named in `signableHeaders`.)
 *
 * Nothing else is signed: a plain client sends the file with its Content-Type only, and a
 * signed header it is never told about makes storage refuse it. The cache policy is set by
 * the service when the picture is attached (cache-policy.ts), not trusted from the PUT.
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
      }),
      {
        expiresIn: options.expiresInSeconds,
        signableHeaders: new Set(['content-type', 'content-length']),
      },
    )
}
