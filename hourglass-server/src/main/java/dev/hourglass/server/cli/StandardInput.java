package dev.hourglass.server.cli;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * The client's standard input, and whether a person sits at it: {@code enqueue --payload -} reads
 * it, {@code dead purge} asks it for confirmation. Tests pass their own.
 */
public final class StandardInput {
  private final InputStream stream;
  private final boolean terminal;
  private BufferedReader lines;

  private StandardInput(InputStream stream, boolean terminal) {
    this.stream = stream;
    this.terminal = terminal;
  }

  /**
   * The process's {@code System.in}.
   *
   * @return the input; interactive when the process runs at a terminal
   */
  public static StandardInput system() {
    return new StandardInput(System.in, systemIsInteractive());
  }

  /**
   * Input that holds {@code text}, as from a terminal when {@code terminal} is true.
   *
   * @param text the whole input
   * @param terminal whether the input counts as a person at a terminal
   * @return the input
   */
  public static StandardInput of(String text, boolean terminal) {
    return new StandardInput(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), terminal);
  }

  /** True when a person can answer a question: stdin (and stdout) are a terminal. */
  boolean isTerminal() {
    return terminal;
  }

  /** All of the input as UTF-8 text. */
  String readAll() throws IOException {
    return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
  }

  /** The next line, without its end, or null at the end of input. */
  String readLine() {
    try {
      if (lines == null) {
        lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
      }
      return lines.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read standard input", e);
    }
  }

  private static boolean systemIsInteractive() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    // Up to JDK 21 a console exists only on a terminal; from JDK 22 it may exist on redirected
    // streams too, and Console.isTerminal() (absent before 22, so called reflectively) tells.
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException e) {
      return true;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Console.isTerminal() failed", e);
    }
  }
}
