package dev.hourglass;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Collects the warnings (and worse) one logger logs while open: how a test sees that a background
 * loop met a failure, without sleeping until it probably did.
 */
final class LoggedWarnings implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  LoggedWarnings(String loggerName) {
    this.logger = (Logger) LoggerFactory.getLogger(loggerName);
    appender.start();
    logger.addAppender(appender);
  }

  /** The warnings logged so far, formatted. */
  List<String> messages() {
    synchronized (appender) { // the appender appends under its own lock
      return appender.list.stream()
          .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  /** How many warnings logged so far mention {@code text}. */
  long count(String text) {
    return messages().stream().filter(m -> m.contains(text)).count();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
  }
}
