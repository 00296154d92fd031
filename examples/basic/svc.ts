// The policy `npm run demo` plans and applies against an embedded emulator.
import { defineConfig } from "svc-config/v1";

export default defineConfig({
  buckets: {
    avatars: { access: "public_read" },
  },
  functions: {
    hello: {
      name: "Hello",
      source: "./functions/hello",
      // A secret-looking value: it never appears in a plan, a log or an error.
      env: { GREETING: process.env.GREETING ?? "Hello from svc-config" },
    },
  },
  triggers: {
    hourly: { type: "schedule", function: "hello", cron: "0 * * * *" },
  },
  branch: (t) => (t.isDefault ? { postgres: { computeSettings: { suspendTimeout: "10m" } } } : { ttl: "7d" }),
});
