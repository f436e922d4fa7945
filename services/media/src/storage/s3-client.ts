import { S3Client } from '@aws-sdk/client-s3'

export interface S3ClientSettings {
  endpoint: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  forcePathStyle: boolean
}

/**
 * One S3 client. The service builds two from the same credentials: one for its own calls
 * (bucket setup, readiness) at the internal endpoint, and one that only signs addresses for
 * the browser at the public endpoint, because the Host is part of a SigV4 signature.
 */
export function createS3Client(settings: S3ClientSettings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    },
    // Since SDK 3.729 every PutObject gets a CRC32 checksum by default; in a pre-signed
    // address that is the checksum of the empty body the signer saw, and S3 would refuse the
    // real file. Checksums only where an operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Readiness answers within 2 s; a hanging S3 must fail a check, not stall it.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 1000, requestTimeout: 5000 },
  })
}
