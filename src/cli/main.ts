import { LIBRARY_VERSION } from "../version.js";

const HELP = `svc ${LIBRARY_VERSION}: config-as-code for a managed Postgres platform

Usage: svc <command> [options]

Options:
  -V, --version  print the version
  -h, --help     print this help
`;

/** Entry point of the `svc` bin; returns the process exit code. */
export function main(argv: readonly string[]): number {
  const [first] = argv;
  if (first === "--version" || first === "-V") {
    process.stdout.write(`${LIBRARY_VERSION}\n`);
    return 0;
  }
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  process.stderr.write(`svc: unknown command "${first}". Run "svc --help" for the list of commands.\n`);
  return 2;
}
