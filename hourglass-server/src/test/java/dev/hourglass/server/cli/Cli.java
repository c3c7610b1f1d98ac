package dev.hourglass.server.cli;

import dev.hourglass.server.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the {@code hourglass} launcher in-process with captured output. */
final class Cli {
  private Cli() {}

  /** What one run printed and returned. */
  record Result(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout:\n" + out + "--- stderr:\n" + err;
    }
  }

  /** Runs with an empty, non-terminal stdin. */
  static Result run(String... args) {
    return run(StandardInput.of("", false), args);
  }

  static Result run(StandardInput stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode = Main.run(stdin, new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Result(exitCode, out.toString(), err.toString());
  }
}
