export { ErrorCode } from "./codes.js";
export { PlatformError, isPlatformError, type ErrorDetails, type PlatformErrorOptions } from "./platform-error.js";
export {
  ConfigValidationError,
  ConfigLoadError,
  formatIssues,
  type ConfigIssue,
  type ConfigLoadDetails,
  type ConfigValidationContext,
  type ConfigValidationDetails,
} from "./config-errors.js";
export {
  PushConflictError,
  PushAbortedError,
  ApplyFailedError,
  StalePlanError,
  BundleError,
  PartialBranchCreateError,
  CancelledError,
  HookFailedError,
  type ApplyFailedDetails,
  type BundleErrorDetails,
  type CancelledDetails,
  type HookFailedDetails,
  type PartialBranchCreateDetails,
  type PushAbortedDetails,
  type PushAbortReason,
  type PushConflictDetails,
  type StalePlanDetails,
  type StalePlanDifference,
  type StalePlanReason,
  type BundleFailure,
  type ExternalPackagesFailureReason,
} from "./engine-errors.js";
export {
  ApiError,
  NetworkError,
  OutcomeUnknownError,
  TimeoutError,
  FeatureUnavailableError,
  errorCodeForStatus,
  type ApiErrorInfo,
} from "./api-errors.js";
export { CheckFailedError, type CheckFailedDetails } from "./check-errors.js";
export { CliError, CliErrorCode, isCliError } from "./cli-errors.js";
