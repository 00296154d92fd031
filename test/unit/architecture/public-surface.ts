/**
 * The names a module's declarations export, read with the TypeScript checker from the source
 * entry (the emitted `.d.ts` exports exactly these), split into values and types.
 */
import ts from "typescript";

/** Exported names of `file`: `values` exist at run time, `types` only in declarations. */
export interface DeclaredExports {
  values: string[];
  types: string[];
}

/** Reads the exports of each entry file with one program. */
export function readDeclaredExports(files: readonly string[]): DeclaredExports[] {
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  return files.map((file) => {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file} is not a module`);
    const values: string[] = [];
    const types: string[] = [];
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      (target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name);
    }
    return { values: values.sort(), types: types.sort() };
  });
}
