/** `svc-config`: identical to `svc-config/v1`. */
export * from "./v1.js";
