// dist/cjs holds CommonJS files inside a "type": "module" package: this marker tells Node to load them as such.
import { writeFileSync } from "node:fs";

writeFileSync(new URL("../dist/cjs/package.json", import.meta.url), '{\n  "type": "commonjs"\n}\n');
