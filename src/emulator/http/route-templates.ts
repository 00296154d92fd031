/**
 * Route templates (`/projects/:project_id/branches`) matched segment by segment: a path matches
 * when one template matches it exactly or with one trailing `/`, a `:param` segment standing for
 * one non-empty segment and every other segment for itself. The same answer as testing the
 * regex `^(?:t1|t2|…)/?$` with each parameter as `[^/]+`, without trying every template from the
 * first character (about a hundred of them share the `/api/v2/projects/…` prefix). Pure.
 */

/** One segment position of the templates: the literal segments that continue from it, the parameter, whether a template ends here. */
interface TemplateNode {
  literals: Map<string, TemplateNode>;
  param: TemplateNode | undefined;
  end: boolean;
}

/** A set of route templates to test paths against. */
export interface RouteTemplates {
  /** Whether a template matches `path` exactly or with one trailing `/`. */
  matches(path: string): boolean;
}

function newNode(): TemplateNode {
  return { literals: new Map(), param: undefined, end: false };
}

function matchFrom(node: TemplateNode, segments: readonly string[], at: number): boolean {
  if (at === segments.length) return node.end;
  const segment = segments[at] ?? "";
  const literal = node.literals.get(segment);
  if (literal !== undefined && matchFrom(literal, segments, at + 1)) return true;
  return node.param !== undefined && segment !== "" && matchFrom(node.param, segments, at + 1);
}

/** Compiles templates (each split at `/`; a segment starting with `:` is a parameter). */
export function compileRouteTemplates(templates: Iterable<string>): RouteTemplates {
  const root = newNode();
  for (const template of templates) {
    let node = root;
    for (const segment of template.split("/")) {
      if (segment.startsWith(":")) {
        node.param ??= newNode();
        node = node.param;
      } else {
        let next = node.literals.get(segment);
        if (next === undefined) {
          next = newNode();
          node.literals.set(segment, next);
        }
        node = next;
      }
    }
    node.end = true;
  }
  return {
    matches(path: string): boolean {
      if (matchFrom(root, path.split("/"), 0)) return true;
      return path.endsWith("/") && matchFrom(root, path.slice(0, -1).split("/"), 0);
    },
  };
}
