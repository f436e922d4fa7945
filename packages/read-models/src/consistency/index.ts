export {
  createReadYourWrites,
  MAX_REFRESHES_PER_READ,
  type ReadYourWrites,
  type ReadYourWritesOptions,
  type CatchUpResult,
} from './read-your-writes'
