package dev.hourglass.forward;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AuthenticationFailureException;
import com.rabbitmq.client.Method;
import com.rabbitmq.client.PossibleAuthenticationFailureException;
import com.rabbitmq.client.ShutdownSignalException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A failed publish as the job's last error: one line an operator reads ({@code connection refused:
 * localhost:5673}, {@code AMQP 312 NO_ROUTE: exchange orders, routing key close}), never a stack
 * trace and never a password.
 */
final class ForwardFailures {
  private ForwardFailures() {}

  static String timeout(long timeoutMs) {
    return "timeout after " + timeoutMs + " ms waiting for the broker's confirm";
  }

  static String returned(int code, String text, String exchange, String routingKey) {
    return "AMQP " + code + " " + text + ": exchange " + exchange + ", routing key " + routingKey;
  }

  /** Why an AMQP connect, channel or publish failed. */
  static String amqp(Throwable failure, String address, String host) {
    Throwable t = unwrap(failure);
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ShutdownSignalException s) {
        return shutdown(s);
      }
      if (c instanceof UnknownHostException) {
        return "unknown host " + host;
      }
      if (c instanceof ConnectException || c instanceof NoRouteToHostException) {
        return "connection refused: " + address;
      }
      if (c instanceof SocketTimeoutException) {
        return "connect timeout: " + address;
      }
      if (c instanceof AuthenticationFailureException
          || c instanceof PossibleAuthenticationFailureException) {
        return "AMQP login refused at " + address + " (user, password or vhost)";
      }
    }
    return "AMQP " + address + ": " + describe(t);
  }

  /** {@code AMQP 404 NOT_FOUND - no exchange 'x' in vhost '/'}, or how the connection was lost. */
  static String shutdown(ShutdownSignalException s) {
    Method reason = s.getReason();
    if (reason instanceof AMQP.Channel.Close c) {
      return "AMQP " + c.getReplyCode() + " " + oneLine(c.getReplyText());
    }
    if (reason instanceof AMQP.Connection.Close c) {
      return "AMQP connection closed: " + c.getReplyCode() + " " + oneLine(c.getReplyText());
    }
    return "AMQP connection lost" + (s.getCause() == null ? "" : ": " + describe(s.getCause()));
  }

  /** {@code Kafka: TopicAuthorizationException: Not authorized to access topics: [orders]}. */
  static String kafka(Throwable failure) {
    Throwable t = unwrap(failure);
    return "Kafka: " + describe(t);
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof ExecutionException || t instanceof CompletionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private static String describe(Throwable t) {
    String message = t.getMessage() == null ? "" : oneLine(t.getMessage());
    String name = t.getClass().getSimpleName();
    return message.isEmpty() ? name : name + ": " + message;
  }

  static String oneLine(String text) {
    String masked = text.replaceAll("(amqps?://[^:/@\\s]*:)[^@/\\s]*@", "$1***@");
    return masked.replaceAll("[\\s\\p{Cntrl}]+", " ").strip();
  }
}
