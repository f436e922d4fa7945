import { POST_CATEGORIES } from '../marketplace/categories'

/**
 * Every user-facing text of the validation rules and the error catalogue, in one place, so
 * the web app and the services show and send the same strings. Texts quoted by the specs are
 * the product's copy and are reproduced exactly. Entries
 * marked "ours" cover rules the specs state without a text; we wrote those.
 */
export const Messages = {
  /** Field hints shown under the signup inputs. */
  hints: {
    name: 'Must begin with a letter. Letters and hyphens allowed.',
    email: 'Please enter a valid email address.',
    phone: 'Please enter a valid phone number.',
    dateOfBirth: 'You must be at least 18 years old to register.',
    confirmPassword: 'Must match the first password input field.',
  },
  /** Signup submit failures and server answers. */
  signup: {
    requiredFields: 'Please fill out all required fields correctly.',
    invalidFirstName: 'Invalid First Name',
    invalidLastName: 'Invalid Last Name',
    invalidEmail: 'Invalid Email Address',
    invalidPhone: 'Invalid Phone Number',
    invalidPassword: 'Invalid Password',
    passwordsDoNotMatch: 'Passwords do not match',
    underage: 'You must be at least 18 years old',
    selectInterest: 'Please select your interest',
    agreeToTerms: 'You must agree to the Terms of Service',
    emailAlreadyRegistered: 'Email already registered',
    registrationFailed: 'Registration Failed',
    noServerResponse: 'No Server Response',
  },
  verification: {
    verified: 'Email verified successfully! Redirecting to login...',
    failed: 'Verification Failed',
    noServerResponse: 'No Server Response',
    resendSucceeded: 'New verification code has been sent to your email.',
    resendFailed: 'Failed to resend verification code.',
  },
  login: {
    missingCredentials: 'Missing email or password',
    invalidCredentials: 'Invalid email or password',
    userNotFound: 'User not found',
    failed: 'Login failed',
    // Lower-case "server" here, unlike signup's "No Server Response".
    noServerResponse: 'No server response',
  },
  session: {
    noTokenFromRefresh: 'No token received from refresh endpoint',
  },
  forgotPassword: {
    failed: 'An error occurred',
    changed: 'Password changed successfully',
  },
  search: {
    failed: 'An error occurred while searching. Please try again.',
  },
  /** Post creation and modification. */
  post: {
    titleAndLocationRequired: 'Title and Location are required for preview',
    notLoggedIn: 'You must be logged in to create a job',
    created: 'Post created successfully!',
    createFailed: 'Failed to create job. Please try again.',
    fetchFailed: 'Failed to fetch jobs. Please try again later.',
    missingUpdateData: 'Missing required data to update job',
    updateFailed: 'Failed to update job. Please try again later.',
    // ours
    locationRequired: 'Location is required',
    invalidExpirationDate: 'Please enter a valid expiration date',
    expirationDateInPast: 'Expiration date cannot be earlier than today',
    invalidPayment: 'Please choose payment options from the list',
    invalidContact: 'Please choose a contact option from the list',
    titleUnchangeable: 'The title of a post cannot be changed',
    // ours: marking a post filled and relisting it (docs/posts.md, "The life of a post")
    relistOnlyWhenClosed:
      'Only a filled or expired post, or one that expires within three days, can be relisted',
    relistTakenDown: 'A post removed by a moderator cannot be relisted',
    relistTooSoon: (at: string) =>
      `A post can be relisted once a day: you can relist this one again after ${at}`,
    fillTakenDown: 'A post removed by a moderator cannot be marked filled',
    relisted: 'Relisted for 30 days: your post is back at the top of the feed',
    relistFailed: 'The post could not be relisted. Please try again.',
    filled: 'Marked filled: the post left the feed and its pending requesters were told',
    fillFailed: 'The post could not be marked filled. Please try again.',
    // ours: a category outside the feed's list
    invalidCategory: `Please choose a category from the list: ${POST_CATEGORIES.join(', ')}`,
  },
  /** ours: a post's contact value, one message per kind of method. */
  contactValue: {
    email: 'Enter an e-mail address for Email, like name@example.com',
    phone: (method: string) => `Enter a 10-digit phone number for ${method}`,
    handle: (method: string, min: number, max: number) =>
      `Enter your ${method} handle: ${min} to ${max} letters, digits, _ or .`,
    text: (max: number) => `Say how to reach you, in at most ${max} characters`,
    withoutMethod: 'Choose a contact method for this contact',
    /** Shown where a post from before contact values has none. */
    notShared: 'The poster will share it in the conversation',
  },
  /** Picture uploads. */
  upload: {
    invalidType: 'Error: Only .png, .jpg, and .jpeg formats allowed!',
    tooLarge: 'Error: File size exceeds 5MB limit',
    noFile: 'Please select a file first!',
    uploaded: 'Picture Uploaded',
    failed: 'Error: Unable to upload image. Your post will be created without an image.',
    noImageUsed: 'No image will be used',
    // ours: profile pictures accept more formats than post pictures (see PROFILE_PICTURE_ALLOWED_TYPES)
    invalidProfileType: 'Error: Only .png, .jpg, .jpeg, .webp and .gif formats allowed!',
    // ours: the bytes sent are not a picture of the type the slot was asked for
    notAPicture: 'Error: This file is not a picture of the type it claims to be. It was removed.',
    // ours: the complete call for a key the caller has no uploaded picture under
    pictureNotFound: 'No uploaded picture with this key',
  },
  /** Requests to posts and to people. */
  requests: {
    alreadyRequestedPost: 'You have already sent a request for this post',
    alreadyRequestedButton: 'Already Requested',
    alreadyRequestedPerson: 'You have already sent a request to this person for this post',
    invalid: 'Invalid request',
    sendFailed: 'Failed to send request. Please try again later.',
    workerInfoMissing: 'Error: Worker information not available.',
    loadFailed: 'Failed to load requests',
    loadFailedError: 'Error: Failed to load requests',
    loadReceivedFailed: 'Failed to load requests. Please try again later.',
    decideFailed: (status: string) => `Failed to ${status} request. Please try again.`,
    notFound: 'Request not found',
    deleteFailed: 'Failed to delete request. Please try again.',
    postDetailsFailed: 'Failed to load post details. Please try again later.',
    // ours: the server's reasons for refusing a request on a post
    workerProfileRequired: 'You need a worker profile to send requests',
    ownPost: 'You cannot send a request for your own post',
    postNotAccepting: 'This post is not taking requests right now',
    // ours: the owner marked the post filled
    postFilled: 'This post was filled and is not taking requests',
    invalidStatus: 'Status must be accepted, rejected or pending',
    // ours: the server's reasons for refusing a request to a person
    notYourPost: 'You can only request people for your own posts',
    cannotRequestYourself: 'You cannot send a request to yourself',
    personNotWorker: 'This person has no worker profile',
    decisionStatus: 'Status must be accepted or rejected',
    alreadyDecided: 'This request was already answered; it can only be deleted',
  },
  /** Blocking another user (docs/blocking.md): the server's answers and the web app's copy. */
  blocks: {
    invalidUser: 'Choose a person to block: userId is missing',
    cannotBlockYourself: 'You cannot block yourself',
    personNotFound: 'Person not found',
    notBlocked: 'You have not blocked this person',
    /** Either side blocked the other: the same words both ways, so nobody learns who did. */
    requestRefused: 'You cannot send a request to this person',
    blockFailed: 'Could not block this person. Please try again.',
    unblockFailed: 'Could not unblock this person. Please try again.',
    loadFailed: 'Could not load your blocked users. Please try again.',
  },
  /** Reports. */
  reports: {
    reasonRequired: 'Please select a reason for reporting',
    alreadyReportedPerson: 'You have already submitted a report for this person',
    alreadyReportedPost: 'You have already submitted a report for this post',
    /** The server's 400 message; the client shows `cannotReportYourself` for it. */
    cannotReportYourselfServer: 'Cannot report yourself',
    cannotReportYourself: 'You cannot report yourself',
    failed: 'Failed to submit report',
    // ours: the server's other answers, and the moderation queue's
    postNotFound: 'Post not found',
    personNotFound: 'Person not found',
    reportNotFound: 'Report not found',
    alreadyClosed: 'This report has already been closed',
    moderatorsOnly: 'Only administrators and editors can review reports',
    invalidAction: 'Action must be dismiss or take-down',
    invalidStatus: 'Status must be open or closed',
  },
  favorites: {
    updateFailed: 'Error updating favorites. Please try again.',
    loginRequired: 'Please login to save favorites',
    loginToViewPeople: 'Please log in to view your favorite workers',
    loadPeopleFailed: 'Error loading favorite workers',
    loginToViewPosts: 'Please log in to view your favorite posts',
    loadPostsFailed: 'Error loading favorite posts',
    // ours: the server's reasons for refusing a favorite
    invalidPost: 'Choose a post to save: postId is missing',
    invalidPerson: 'Choose a person to save: personID is missing',
    postNotFound: 'Post not found',
    personNotFound: 'Person not found',
    ownPost: 'You cannot add your own post to your favorites',
    yourself: 'You cannot add yourself to your favorites',
    tooManyPosts: (max: number) =>
      `You can keep at most ${max} favorite posts. Remove some to add new ones.`,
    tooManyPeople: (max: number) =>
      `You can keep at most ${max} favorite people. Remove some to add new ones.`,
  },
  categories: {
    loadFailed: 'Failed to load categories',
    loginRequired: 'Please log in to view categories',
  },
  postPicker: {
    loadFailed: 'Failed to load posts',
    invalidData: 'Invalid data format received from server',
  },
  feeds: {
    workersFailed: 'Failed to fetch workers. Please try again.',
    jobsFailed: 'Failed to fetch jobs. Please try again.',
  },
  /** Account settings and deletion. */
  account: {
    newPasswordsDoNotMatch: 'New passwords do not match',
    // ours: the Name field holds one word, so there is no last name to save.
    fullNameRequired: 'Enter your first and last name, like Mary Smith',
    loginToView: 'Please log in to view your account.',
    userIdNotInToken: 'User ID not found in token',
    userIdNotFound: 'User ID not found. Please log in again.',
    deleteFailed: 'An error occurred while deleting your account',
    deleted: 'Your account has been successfully deleted.',
  },
  /** ours: the notifications service's refusals. */
  notifications: {
    notFound: 'Notification not found',
    invalidPage: 'page and limit must be whole numbers (limit at most 50)',
  },
  notificationPreferences: {
    // ours
    invalid: (field: string) => `${field} must be true or false`,
    loadFailed: 'Failed to load notification preferences',
    loginToUpdate: 'Please log in to update your preferences',
    updated: 'Notification preferences updated',
    updateFailed: 'Failed to update notification preferences',
  },
  /** Worker profile. */
  workerProfile: {
    loginToView: 'Please log in to view your profile.',
    publicContactsHelp: 'Your contact information will be visible to everyone',
    hiddenContactsHelp:
      'Your contact information will only be visible to users on who you made a post request',
    // ours
    titleRequired: 'Title is required',
    skillsRequired: 'At least one skill is required',
    availabilityRequired: 'Availability is required',
    paymentTypeRequired: 'Payment type is required',
    locationRequired: 'Location is required',
    tooManySkills: (max: number) => `You can list at most ${max} skills`,
    tooManyContacts: (max: number) => `You can list at most ${max} contacts`,
    invalidContactVisibility: 'Contact visibility must be public or hidden',
    takenDown:
      'A moderator has hidden this profile after a report, so it cannot be shown again. Contact support if you think this is a mistake.',
  },
  /** Support and contact messages. */
  support: {
    // ours: the server's answers to POST /api/email/send-email
    messageRequired: 'Please write a message before sending it',
    invalidEmail: 'Please enter a valid email address so we can answer you',
    sendFailed: 'Your message could not be sent right now. Please try again in a few minutes.',
    tooManyMessages: (retryAfterSeconds: number) =>
      `You have sent several messages in a short time. Please try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
    sentTitle: 'Message sent!',
    sent: 'We will review your message ASAP and get back to you on the matter you expressed there.',
  },
  /**
   * ours: the auth service's answers the product leaves open (its client shows
   * the server's message for verification, forgot-password and reset errors).
   */
  auth: {
    emailRequired: 'Email is required',
    emailAndCodeRequired: 'Email and code are required',
    resetFieldsRequired: 'Email, code and new password are required',
    changeFieldsRequired: 'Current and new password are required',
    codeFormat: 'The code is the 6 digits from the email we sent you',
    codeWrong: (attemptsLeft: number) =>
      attemptsLeft > 0
        ? `Incorrect code. ${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left.`
        : 'Incorrect code. Please request a new code.',
    codeExpired: 'This code has expired. Please request a new code.',
    codeAttemptsExhausted: 'Too many incorrect attempts. Please request a new code.',
    codeMissing: 'There is no valid code for this email. Please request a new code.',
    alreadyVerified: 'This email is already verified. Please log in.',
    emailVerified: 'Email verified successfully',
    emailNotVerified:
      'Please verify your email before logging in. Enter the code we sent you, or ask for a new one.',
    accountDeletionPending:
      'This account is scheduled for deletion and cannot be used to log in. Choose "Keep my account" to cancel the deletion.',
    // ours: "Keep my account" during the 30-day grace period (docs/people.md)
    keepAccountButton: 'Keep my account',
    noDeletionPending: 'This account is not scheduled for deletion',
    deletionGraceOver: 'The 30-day grace period is over; this account is being deleted.',
    resetCodeSent:
      'If an account exists for this email, a password reset code has been sent to it.',
    passwordRules:
      'Password must be 8 to 24 characters with a lowercase letter, an uppercase letter, a digit and one of ! @ # $ %',
    wrongCurrentPassword: 'Current password is incorrect',
    samePassword: 'The new password must be different from the current one',
    sessionMissing: 'You are not signed in. Please log in.',
    sessionEnded: 'Your session has ended. Please log in again.',
    csrfRejected:
      'This request was blocked because its security token is missing or wrong. Reload the page and try again.',
    originRejected: 'This request was blocked because it did not come from this site.',
    tooManyAttempts: (retryAfterSeconds: number) =>
      retryAfterSeconds < 60
        ? `Too many attempts. Please try again in ${retryAfterSeconds} seconds.`
        : `Too many attempts. Please try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
    accountCreated: 'Account created. Check your email for the verification code.',
  },
  /** ours: length limits, shared by every bounded text field. */
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
} as const
