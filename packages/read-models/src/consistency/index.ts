export {
  createReadYourWrites,
  type ReadYourWrites,
  type ReadYourWritesOptions,
  type CatchUpResult,
} from './read-your-writes'
