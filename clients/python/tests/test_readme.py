"""The README's quick start, run as printed against a server of its own."""

import os
import re
import subprocess
import sys
import unittest

from .support import CLIENT_DIR, ServerProcess


def python_blocks() -> str:
    text = (CLIENT_DIR / "README.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    if not blocks:
        raise AssertionError("the README has no python block")
    return "\n".join(blocks)


class ReadmeTest(unittest.TestCase):
    def test_the_quick_start_runs_as_printed(self) -> None:
        server = ServerProcess().start()
        self.addCleanup(server.close)
        env = dict(os.environ, HOURGLASS_URL=server.url, PYTHONPATH=str(CLIENT_DIR))
        run = subprocess.run(
            [sys.executable, "-c", python_blocks()], env=env, capture_output=True, text=True, timeout=120
        )
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(
            run.stdout.splitlines(),
            ["enqueued welcome-ada delayed", "sending to ada@example.com attempt 1", "acked 1"],
        )


if __name__ == "__main__":
    unittest.main()
