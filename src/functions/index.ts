/**
 * `svc-config/functions`: helpers for function authors, bundled into the function itself (no
 * dependencies). `parseTriggerDelivery(request)` reads a schedule or storage trigger's invocation;
 * see docs/dev.md for a Hono and a plain example.
 */
export {
  isTriggerDeliveryError,
  parseTriggerDelivery,
  TriggerDeliveryError,
  type DeliveredTrigger,
  type ScheduleDelivery,
  type StorageObjectCreatedDelivery,
  type TriggerDelivery,
  type TriggerDeliveryErrorCode,
} from "./trigger-delivery.js";
