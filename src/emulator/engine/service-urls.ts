/**
 * The URLs of a branch's platform services as the emulator reports them (records only: their
 * hosts end in `.emulator.invalid` and point at nothing): auth, the Data API and the AI gateway.
 * The routes render them and the function environment hands them to running functions, from
 * this one place.
 */
import type { BranchRec, EndpointRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";

/** The branch's read-write compute, whose id names the services' hosts. */
export function readWriteEndpoint(project: ProjectRec, branch: BranchRec): EndpointRec | undefined {
  return [...project.endpoints.values()].find((e) => e.branchId === branch.id && e.type === "read_write");
}

/** Auth's base URL and JWKS URL for a database of the branch. */
export function authUrls(world: World, project: ProjectRec, branch: BranchRec, database: string): { baseUrl: string; jwksUrl: string } {
  const host = `${readWriteEndpoint(project, branch)?.id ?? branch.id}.auth.${world.proxyHost(project.regionId)}`;
  return { baseUrl: `https://${host}/${database}/auth`, jwksUrl: `https://${host}/${database}/auth/.well-known/jwks.json` };
}

/** The Data API's URL for a database of the branch. */
export function dataApiUrl(world: World, project: ProjectRec, branch: BranchRec, database: string): string {
  return `https://${readWriteEndpoint(project, branch)?.id ?? branch.id}.apirest.${world.proxyHost(project.regionId)}/${database}/rest/v1`;
}

/** The AI gateway's base URL of the branch. */
export function aiGatewayUrl(world: World, project: ProjectRec, branch: BranchRec): string {
  return `https://${branch.id}.ai.${world.proxyHost(project.regionId)}`;
}
