/** `startEmulator` options, validated with zod; errors name the option. */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ErrorCode, PlatformError } from "../errors/index.js";
import type { TimeSource } from "./engine/clock.js";
import { parseFaultPlan, validateFaultRules, type FaultRule } from "./faults.js";
import type { FunctionsSettings } from "./functions/feature.js";
import type { InvocationLogSink } from "./functions/invocation-log.js";
import type { RequestLogSink } from "./request-log.js";
import { DEFAULT_LIMITS, type EmulatorLimits } from "./runtime.js";
import { parseSeedDocument, type SeedDocument } from "./seed.js";
import { DEFAULT_TIMINGS, type EmulatorTimings } from "./store/world.js";
import type { StateDocument } from "./state-document.js";

/** Options of {@link startEmulator}; every field optional. */
export interface EmulatorOptions {
  /** Listen port; 0 = a random free port. @default 0 */
  port?: number;
  /** Bind address. @default "127.0.0.1" */
  host?: string;
  /** A seed document, a state document (`snapshot({ secrets: true })`), or the path of a JSON one. @default the built-in seed */
  seed?: string | SeedDocument | StateDocument;
  /** Fixes the bootstrap key. @default generated */
  apiKey?: string;
  /** Latency added before each API request: ms, or a uniform `[min, max]` range. @default 0 */
  latencyMs?: number | [number, number];
  /** A fault plan string (`status=503,rate=0.1;reset=0.02`) or rules. */
  faults?: string | FaultRule[];
  /** Seed of the fault and latency PRNG. @default 1 */
  faultSeed?: number;
  /** Seed of ids, passwords and tokens (deterministic worlds). @default random */
  idSeed?: number;
  /** Durations of operations, builds and domain activation (ms). */
  timings?: Partial<EmulatorTimings>;
  /** Size limits (bytes). */
  limits?: Partial<EmulatorLimits>;
  /** `system`, `manual`, a `Date` (manual, starting there) or a time source. @default "system" */
  clock?: "system" | "manual" | Date | TimeSource;
  /** Request log: off, text or JSON lines on stderr, or a callback. @default "off" */
  log?: RequestLogSink;
  /** PostgreSQL for claimable databases: `"embedded"` or a server URL. @default "embedded" */
  postgres?: string;
  /** Alias of `postgres` given a URL (`--postgres-url`). */
  postgresUrl?: string;
  /** Local direct port of claimable databases; 0 = a free port. @default 0 */
  pgPort?: number;
  /** Local pooled port of claimable databases; 0 = a free port. @default 0 */
  poolerPort?: number;
  /** Persist state in this directory. @default none: memory */
  dataDir?: string;
  /** Real PostgreSQL databases behind branches and `connection_uri`. @default false */
  realDatabases?: boolean;
  /** Legacy auth routes after their removal date: `serve` or `gone` (410). @default "serve" */
  legacyAuthAfterSunset?: "serve" | "gone";
  /** How deployed functions run. */
  functions?: {
    /** A function process with no request for this long is stopped (ms). @default 300000 */
    idleMs?: number;
    /** A function with no response after this long gets a 504; a trigger delivery then fails (ms). @default 900000, the platform's 15 minutes */
    timeoutMs?: number;
    /** One line per invocation: off, text or JSON lines on stderr, or a callback. @default "off" */
    log?: InvocationLogSink;
  };
}

/** Options after validation and defaults. */
export interface ResolvedEmulatorOptions {
  port: number;
  host: string;
  seed?: SeedDocument;
  apiKey?: string;
  latency: [number, number];
  faults: FaultRule[];
  faultSeed: number;
  idSeed?: number;
  timings: EmulatorTimings;
  limits: EmulatorLimits;
  clock: "system" | "manual" | Date | TimeSource;
  log: RequestLogSink;
  /** `"embedded"` or a PostgreSQL URL. */
  postgres: string;
  pgPort: number;
  poolerPort: number;
  dataDir?: string;
  realDatabases: boolean;
  legacyAuthAfterSunset: "serve" | "gone";
  functions: FunctionsSettings;
}

const Ms = z.number().int().min(0);
const OptionsSchema = z.object({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  seed: z.unknown().optional(),
  apiKey: z.string().min(8, "must be at least 8 characters").optional(),
  latencyMs: z.union([Ms, z.tuple([Ms, Ms])]).optional(),
  faults: z.unknown().optional(),
  faultSeed: z.number().int().optional(),
  idSeed: z.number().int().optional(),
  timings: z.object({ opSchedulingMs: Ms, opRunMs: Ms, deployPendingMs: Ms, deployBuildMs: Ms, domainActivationMs: Ms, claimTransferMs: Ms }).partial().optional(),
  limits: z.object({ jsonBodyBytes: Ms, multipartBodyBytes: Ms, zipBytes: Ms, unzippedBytes: Ms, zipEntries: Ms, environmentBytes: Ms, objectBytes: Ms, claimableStorageBytes: Ms }).partial().optional(),
  clock: z.unknown().optional(),
  log: z.unknown().optional(),
  postgres: z.string().refine((v) => v === "embedded" || /^postgres(ql)?:\/\//.test(v), 'must be "embedded" or a postgresql:// URL').optional(),
  postgresUrl: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL").optional(),
  pgPort: z.number().int().min(0).max(65535).optional(),
  poolerPort: z.number().int().min(0).max(65535).optional(),
  dataDir: z.string().min(1).optional(),
  realDatabases: z.boolean().optional(),
  legacyAuthAfterSunset: z.enum(["serve", "gone"]).optional(),
  functions: z.object({ idleMs: z.number().int().min(1).optional(), timeoutMs: z.number().int().min(1).optional(), log: z.unknown().optional() }).optional(),
});

function invalidOption(option: string, message: string): PlatformError {
  return new PlatformError(ErrorCode.INVALID_OPTIONS, `invalid emulator option ${option}: ${message}`, { details: { option } });
}

/** Reads a seed from a path or validates an object. */
export function resolveSeed(seed: unknown): SeedDocument {
  if (typeof seed === "string") {
    let text: string;
    try {
      text = readFileSync(seed, "utf8");
    } catch (err) {
      throw invalidOption("seed", `cannot read ${seed} (${(err as Error).message}); give the path of a JSON seed document`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw invalidOption("seed", `${seed} is not valid JSON (${(err as Error).message})`);
    }
    return parseSeedDocument(raw);
  }
  return parseSeedDocument(seed);
}

/** Validates options and fills defaults. */
export function resolveEmulatorOptions(options: EmulatorOptions = {}): ResolvedEmulatorOptions {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidOption(issue?.path.join(".") || "(options)", issue?.message ?? "invalid");
  }
  const o = parsed.data;
  const latency: [number, number] = o.latencyMs === undefined ? [0, 0] : typeof o.latencyMs === "number" ? [o.latencyMs, o.latencyMs] : o.latencyMs;
  if (latency[0] > latency[1]) throw invalidOption("latencyMs", `the range [${latency[0]}, ${latency[1]}] has min above max`);
  let faults: FaultRule[] = [];
  if (typeof options.faults === "string") faults = parseFaultPlan(options.faults);
  else if (Array.isArray(options.faults)) {
    validateFaultRules(options.faults);
    faults = options.faults;
  } else if (options.faults !== undefined) throw invalidOption("faults", "must be a plan string or an array of fault rules");
  const clock = options.clock ?? "system";
  if (!(clock === "system" || clock === "manual" || clock instanceof Date || (typeof clock === "object" && typeof clock.now === "function"))) {
    throw invalidOption("clock", 'must be "system", "manual", a Date or an object with now()');
  }
  const log = options.log ?? "off";
  if (!(log === "off" || log === "text" || log === "json" || typeof log === "function")) throw invalidOption("log", 'must be "off", "text", "json" or a function');
  const functionLog = options.functions?.log ?? "off";
  if (!(functionLog === "off" || functionLog === "text" || functionLog === "json" || typeof functionLog === "function")) throw invalidOption("functions.log", 'must be "off", "text", "json" or a function');
  return {
    port: o.port ?? 0,
    host: o.host ?? "127.0.0.1",
    ...(options.seed !== undefined ? { seed: resolveSeed(options.seed) } : {}),
    ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
    latency,
    faults,
    faultSeed: o.faultSeed ?? 1,
    ...(o.idSeed !== undefined ? { idSeed: o.idSeed } : {}),
    timings: { ...DEFAULT_TIMINGS, ...o.timings },
    limits: { ...DEFAULT_LIMITS, ...o.limits },
    clock,
    log,
    postgres: o.postgresUrl ?? o.postgres ?? "embedded",
    pgPort: o.pgPort ?? 0,
    poolerPort: o.poolerPort ?? 0,
    ...(o.dataDir !== undefined ? { dataDir: o.dataDir } : {}),
    realDatabases: o.realDatabases ?? false,
    legacyAuthAfterSunset: o.legacyAuthAfterSunset ?? "serve",
    functions: { idleMs: o.functions?.idleMs ?? 300_000, timeoutMs: o.functions?.timeoutMs ?? 900_000, log: functionLog },
  };
}
