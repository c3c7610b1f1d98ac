// Removes the build output directories named on the command line (portable `rm -rf`).
import { rmSync } from "node:fs";

for (const dir of process.argv.slice(2)) {
  rmSync(new URL(`../${dir}`, import.meta.url), { recursive: true, force: true });
}
