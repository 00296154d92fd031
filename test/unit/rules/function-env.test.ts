import { describe, expect, it } from "vitest";
import { functionEnvironment, functionUrlEnvName, platformEnvironment, reservedEnvNameIssue } from "../../../src/rules/function-env.js";

describe("the environment a function sees", () => {
  it("names every platform variable only when its service is there, and leaves the function's own URL out", () => {
    expect(Object.keys(platformEnvironment({ branchName: "main" }, "api"))).toEqual(["SVC_BRANCH"]);
    const full = platformEnvironment(
      {
        branchName: "preview/x",
        database: { pooledUrl: "postgres://pooled", directUrl: "postgres://direct" },
        auth: { baseUrl: "https://auth", jwksUrl: "https://auth/jwks" },
        dataApiUrl: "https://data",
        aiGateway: { baseUrl: "https://ai", token: "t" },
        objectStorage: { accessKeyId: "k", secretAccessKey: "s", endpointUrl: "http://s3", region: "r" },
        functionUrls: { api: "http://api", worker: "http://worker", empty: "" },
      },
      "api",
    );
    expect({ ...full }).toEqual({
      DATABASE_URL: "postgres://pooled",
      DATABASE_URL_UNPOOLED: "postgres://direct",
      SVC_BRANCH: "preview/x",
      SVC_AUTH_BASE_URL: "https://auth",
      SVC_AUTH_JWKS_URL: "https://auth/jwks",
      SVC_DATA_API_URL: "https://data",
      SVC_AI_GATEWAY_BASE_URL: "https://ai",
      SVC_AI_GATEWAY_TOKEN: "t",
      AWS_ACCESS_KEY_ID: "k",
      AWS_SECRET_ACCESS_KEY: "s",
      AWS_ENDPOINT_URL_S3: "http://s3",
      AWS_REGION: "r",
      SVC_FUNCTION_WORKER_URL: "http://worker",
    });
  });

  it("lets the platform override the inherited environment and the function's own env override both; \"\" removes", () => {
    const env = functionEnvironment({
      inherited: { PATH: "/bin", DATABASE_URL: "mine", TOKEN: "inherited", UNSET: undefined },
      platform: { DATABASE_URL: "platform", SVC_BRANCH: "main" },
      own: { TOKEN: "own", PATH: "" },
    });
    expect({ ...env }).toEqual({ DATABASE_URL: "platform", SVC_BRANCH: "main", TOKEN: "own" });
  });

  it("keeps __proto__ an ordinary name", () => {
    const env = functionEnvironment({ platform: {}, own: JSON.parse('{"__proto__":"x"}') as Record<string, string> });
    expect(Object.keys(env)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(env)).toBeNull();
  });

  it("writes SVC_FUNCTION_<SLUG>_URL from a slug", () => {
    expect(functionUrlEnvName("api2")).toBe("SVC_FUNCTION_API2_URL");
  });

  it.each(["SVC_X", "svc_lower", "SVC_FINGERPRINT_A", "DATABASE_URL", "DATABASE_URL_UNPOOLED", "AWS_REGION", "AWS_SECRET_ACCESS_KEY"])("reserves %s", (name) => {
    expect(reservedEnvNameIssue(name)).toContain(name);
  });

  it.each(["DATABASE_URL_2", "database_url", "AWS_PROFILE", "MY_SVC_X", "TOKEN"])("leaves %s to the policy", (name) => {
    expect(reservedEnvNameIssue(name)).toBeNull();
  });
});
