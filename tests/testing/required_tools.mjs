// The independent tools the cross-engine checks compare floe against
// (DuckDB, parquet-wasm, ajv, python3-avro) are installed by `make test`
// (dev/install-test-tools, dev/setup), so a missing one is a broken setup:
// the check fails. Only where FLOE_ALLOW_MISSING_TOOLS=1 says a machine
// lacks them on purpose does it skip instead (exit 77, which ctest reports
// as skipped through SKIP_RETURN_CODE).
import { existsSync } from 'node:fs';
import path from 'node:path';

export const missingToolsAllowed = () => process.env.FLOE_ALLOW_MISSING_TOOLS === '1';

// Ends the check: skipped when allowed, failed otherwise.
export function missingTool(what) {
  if (missingToolsAllowed()) {
    console.log(`SKIP: ${what} (FLOE_ALLOW_MISSING_TOOLS=1)`);
    process.exit(77);
  }
  console.log(`FAIL: ${what}: 'make setup' installs it (or set FLOE_ALLOW_MISSING_TOOLS=1 to skip this check)`);
  process.exit(1);
}

// Ends the check unless every npm package in `packages` is in TOOLS/node_modules.
export function requireNodeModules(tools, packages) {
  const missing = packages.filter((p) => !existsSync(path.join(tools, 'node_modules', p)));
  if (missing.length > 0) missingTool(`${missing.join(', ')} not installed in ${path.join(tools, 'node_modules')}`);
}

// Fails the check unless `dir`, a fixture folder of ../shared, exists:
// fixtures are part of the checkout's surroundings, never optional.
export function requireFixtures(dir) {
  if (!existsSync(dir)) {
    console.log(`FAIL: fixture folder ${dir} is missing`);
    process.exit(1);
  }
}
