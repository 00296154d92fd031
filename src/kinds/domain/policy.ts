/** The policy's custom domains: a function's (or a branch tuning's) `customDomains` list. */
import * as z from "zod";
import { describeType } from "../../config/issues.js";
import { hostnameSchema } from "../../rules/hostname.js";

/** A list of hostnames, normalised; a hostname listed twice is an error naming both indexes. */
export const customDomainsSchema = z
  .array(hostnameSchema, { error: (issue) => `must be a list of hostnames (got ${describeType(issue.input)})` })
  .superRefine((domains, ctx) => {
    const firstIndex = new Map<string, number>();
    for (const [index, domain] of domains.entries()) {
      const earlier = firstIndex.get(domain);
      if (earlier === undefined) firstIndex.set(domain, index);
      else {
        ctx.addIssue({
          code: "custom",
          path: [index],
          message: `hostname ${domain} is listed twice: customDomains[${earlier}] and customDomains[${index}]`,
        });
      }
    }
  });
