package dev.hourglass;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Collects the warnings Lettuce's channel handler logs while open, such as "Connection is already
 * closed" for a connection closed twice.
 */
final class LettuceWarnings implements AutoCloseable {
  private final Logger channel =
      (Logger) LoggerFactory.getLogger("io.lettuce.core.RedisChannelHandler");
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  LettuceWarnings() {
    appender.start();
    channel.addAppender(appender);
  }

  /** The warnings (and worse) logged so far. */
  List<String> messages() {
    return appender.list.stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Override
  public void close() {
    channel.detachAppender(appender);
  }
}
