package dev.hourglass.server.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Every HTTP API path the client calls, from API.md, with queue names and ids encoded. */
final class ApiPaths {
  private ApiPaths() {}

  static String queues() {
    return "/v1/queues";
  }

  static String queue(String queue) {
    return queues() + "/" + segment(queue);
  }

  static String jobs(String queue) {
    return queue(queue) + "/jobs";
  }

  static String job(String queue, String id) {
    return jobs(queue) + "/" + segment(id);
  }

  static String schedule(String queue, String id) {
    return job(queue, id) + "/schedule";
  }

  static String dead(String queue) {
    return queue(queue) + "/dead";
  }

  /** One page of dead jobs; {@code limit} and {@code cursor} are left out when null. */
  static String deadPage(String queue, Integer limit, String cursor) {
    StringBuilder path = new StringBuilder(dead(queue));
    char separator = '?';
    if (limit != null) {
      path.append(separator).append("limit=").append(limit);
      separator = '&';
    }
    if (cursor != null) {
      path.append(separator)
          .append("cursor=")
          .append(URLEncoder.encode(cursor, StandardCharsets.UTF_8));
    }
    return path.toString();
  }

  static String requeueDead(String queue, String id) {
    return dead(queue) + "/" + segment(id) + "/requeue";
  }

  static String requeueAllDead(String queue) {
    return dead(queue) + "/requeue";
  }

  /**
   * Percent-encodes all but the characters API.md allows in queue names and ids ({@code
   * [A-Za-z0-9._:-]}), so any other text still reaches the server as one path segment.
   */
  static String segment(String text) {
    StringBuilder encoded = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '.'
          || c == '_'
          || c == ':'
          || c == '-') {
        encoded.append(c);
      } else {
        encoded.append('%').append(String.format("%02X", b & 0xFF));
      }
    }
    return encoded.toString();
  }
}
