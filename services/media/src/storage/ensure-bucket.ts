import {
  CreateBucketCommand,
  HeadBucketCommand,
  PutBucketCorsCommand,
  PutBucketPolicyCommand,
  type BucketLocationConstraint,
  type CORSRule,
  type S3Client,
} from '@aws-sdk/client-s3'
import { UPLOAD_KEY_PREFIXES } from '@marketplace/contracts/marketplace'

export interface BucketSettings {
  bucket: string
  region: string
  /** The web app's origins: the only ones whose browsers may PUT to pre-signed addresses. */
  appOrigins: string[]
}

export interface BucketSetupOutcome {
  created: boolean
  /** False when the S3 server has no per-bucket CORS (MinIO: one server-wide setting). */
  corsApplied: boolean
}

/**
 * Anonymous read of the two picture prefixes only (keys starting with
 * userImages/ or jobImages/ are served from a public bucket). No s3:ListBucket, so nobody
 * can enumerate the pictures, and nothing else in the bucket is readable without a key.
 */
export function publicReadPolicy(bucket: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'PublicReadPictures',
        Effect: 'Allow',
        Principal: '*',
        Action: 's3:GetObject',
        Resource: Object.values(UPLOAD_KEY_PREFIXES).map(
          (prefix) => `arn:aws:s3:::${bucket}/${prefix}*`,
        ),
      },
    ],
  })
}

/**
 * The browser PUTs the file itself, cross-origin: the preflight must allow PUT with
 * content-type (signed; content-length is set by the browser and never preflighted) and
 * cache-control, which the web app's client still sends along (unsigned, and replaced when the
 * picture is attached). GET and HEAD let the app read pictures with fetch too.
 */
export function corsRules(appOrigins: string[]): CORSRule[] {
  return [
    {
      AllowedOrigins: appOrigins,
      AllowedMethods: ['PUT', 'GET', 'HEAD'],
      AllowedHeaders: ['content-type', 'cache-control'],
      ExposeHeaders: ['ETag'],
      MaxAgeSeconds: 600,
    },
  ]
}

/**
 * Makes the bucket what the service needs: it exists, its policy is exactly
 * `publicReadPolicy`, and its CORS rules are `corsRules`. Every step is a put of the whole
 * setting, so running it again (every start, several replicas at once) changes nothing.
 */
export async function ensureBucket(
  client: S3Client,
  settings: BucketSettings,
  /** Aborts the request in flight (the service closing), so nobody waits for S3 to answer. */
  signal?: AbortSignal,
): Promise<BucketSetupOutcome> {
  const { bucket } = settings
  const options = { abortSignal: signal }
  const created = await createIfMissing(client, settings, options)
  await client.send(
    new PutBucketPolicyCommand({ Bucket: bucket, Policy: publicReadPolicy(bucket) }),
    options,
  )
  let corsApplied = true
  try {
    await client.send(
      new PutBucketCorsCommand({
        Bucket: bucket,
        CORSConfiguration: { CORSRules: corsRules(settings.appOrigins) },
      }),
      options,
    )
  } catch (error) {
    // MinIO answers NotImplemented: its CORS is server-wide (MINIO_API_CORS_ALLOW_ORIGIN).
    if (errorName(error) !== 'NotImplemented') throw error
    corsApplied = false
  }
  return { created, corsApplied }
}

async function createIfMissing(
  client: S3Client,
  settings: BucketSettings,
  options: { abortSignal?: AbortSignal },
): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }), options)
    return false
  } catch (error) {
    if (errorName(error) !== 'NotFound') throw error
  }
  try {
    await client.send(
      new CreateBucketCommand({
        Bucket: settings.bucket,
        // us-east-1 is the default location and AWS refuses it when named explicitly.
        ...(settings.region === 'us-east-1'
          ? {}
          : {
              CreateBucketConfiguration: {
                LocationConstraint: settings.region as BucketLocationConstraint,
              },
            }),
      }),
      options,
    )
    return true
  } catch (error) {
    // Another replica created it between our HEAD and our CREATE.
    if (errorName(error) === 'BucketAlreadyOwnedByYou') return false
    throw error
  }
}

function errorName(error: unknown): string | undefined {
  return (error as { name?: string } | null)?.name
}
