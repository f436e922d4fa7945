import { appConfig } from '@/config/env'

export const NO_IMAGE = '/images/no-image.svg'
export const DEFAULT_PROFILE_PICTURE = '/images/default-profile.svg'

/**
 * spec 1 §3 "Images": keys under userImages/ or jobImages/ come from the public bucket;
 * any other path is same-origin; nothing at all gets the placeholder.
 */
export function imageUrl(key: string | null | undefined, fallback: string = NO_IMAGE): string {
  if (!key) return fallback
  if (/^https?:\/\//.test(key)) return key
  if (key.startsWith('userImages/') || key.startsWith('jobImages/')) {
    return `${appConfig().publicBucketUrl}/${key}`
  }
  return key.startsWith('/') ? key : `/${key}`
}
