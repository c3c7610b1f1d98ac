package dev.hourglass.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.io.Console;
import org.slf4j.LoggerFactory;

/**
 * Configures logging from the server's settings: one JSON object per line or plain text (by default
 * text when standard output is a terminal) on standard error, at the chosen level for Hourglass and
 * at WARN for the libraries under it, so a healthy server is quiet.
 */
final class LogSetup {
  private LogSetup() {}

  static void apply(String format, String level) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    context.reset();
    Encoder<ILoggingEvent> encoder;
    if (json(format, terminal())) {
      JsonEncoder json = new JsonEncoder();
      json.setWithSequenceNumber(false);
      json.setWithNanoseconds(false);
      json.setWithContext(false);
      json.setWithArguments(false);
      // "message" is the SLF4J template ("listening on {}"); without this the values are lost.
      json.setWithFormattedMessage(true);
      json.setWithMarkers(false);
      encoder = json;
    } else {
      PatternLayoutEncoder text = new PatternLayoutEncoder();
      text.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{24} %msg%n%ex");
      encoder = text;
    }
    encoder.setContext(context);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setTarget("System.err");
    console.setEncoder(encoder);
    console.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(console);
    root.setLevel(Level.WARN);
    context.getLogger("dev.hourglass").setLevel(Level.toLevel(level, Level.INFO));
  }

  /**
   * Whether standard output is a terminal. On Java 17 {@link System#console()} is there exactly
   * when standard input and output both are; from Java 22 it may be there without one, and {@code
   * Console.isTerminal()} tells.
   */
  static boolean terminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // Java 17 to 21: a console is a terminal
    }
  }

  /**
   * Whether log lines are JSON: {@code json} and {@code text} say so, {@code auto} means text for a
   * person at a terminal and JSON for a log collector.
   */
  static boolean json(String format, boolean terminal) {
    return switch (format) {
      case "json" -> true;
      case "text" -> false;
      case "auto" -> !terminal;
      default -> throw new IllegalArgumentException("unknown log format: " + format);
    };
  }
}
