/**
 * The reads that decide whether a delete is safe, shared by the plan (the inspector's guard
 * wave) and the executor (re-read right before the DELETE): one definition, so the two can
 * never ask differently.
 */
import { ErrorCode } from "../errors/codes.js";
import { isPlatformError } from "../errors/platform-error.js";
import type { PlatformApi } from "./platform-api.js";

/** Whether `bucket` holds at least one object (one `limit=1` listing). */
export async function bucketHasObjects(api: PlatformApi, ref: { projectId: string; branchId: string; bucket: string }): Promise<boolean> {
  const page = await api.listBucketObjects({ ...ref, limit: 1 });
  return page.objects.length > 0 || page.is_truncated;
}

/** Whether `databaseName` serves a Data API; a region without the Data API answers no. */
export async function databaseServesDataApi(api: PlatformApi, ref: { projectId: string; branchId: string; databaseName: string }): Promise<boolean> {
  try {
    return (await api.getDataApi(ref)) !== null;
  } catch (err) {
    if (isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) return false;
    throw err;
  }
}
