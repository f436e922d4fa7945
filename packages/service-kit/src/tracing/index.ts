export { startTracing, type TracingOptions } from './start-tracing'
export { tracingOptionsFromEnvironment } from './config'
export { isTracingOn, setTracingOn, flushTracing } from './tracing-state'
export {
  currentTraceparent,
  startPublishSpan,
  traceMessageHandling,
  inSpan,
  TRACEPARENT_HEADER,
  type TracedEvent,
} from './event-trace'
