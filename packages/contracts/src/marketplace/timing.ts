/** Post-created overlay shows for 2 s before the modal closes. */
export const POST_CREATED_OVERLAY_MS = 2000
/** Verification success redirects to /login after 2000 ms. */
export const VERIFY_REDIRECT_DELAY_MS = 2000
/** Upload failure text changes to "No image will be used" after 5 s. */
export const UPLOAD_FAILURE_MESSAGE_SWITCH_MS = 5000

/** Rendering failure is retried 3 times, 100 ms apart. */
export const RENDER_RETRY = { attempts: 3, delayMs: 100 } as const

/** Platform periods stated by the terms. */
export const ACCOUNT_DELETION_GRACE_DAYS = 30
export const CLOSED_ACCOUNT_DATA_REMOVAL_DAYS = 30
export const TERMINATION_APPEAL_WINDOW_DAYS = 30
export const TERMS_CHANGE_NOTICE_DAYS = 30
export const REPORT_REVIEW_HOURS = 24
