package dev.hourglass.server.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

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

  /** A queue's recurring schedules (API.md 1.2; {@link #schedule} is a job's reschedule). */
  static String schedules(String queue) {
    return queue(queue) + "/schedules";
  }

  static String recurring(String queue, String id) {
    return schedules(queue) + "/" + segment(id);
  }

  static String dead(String queue) {
    return queue(queue) + "/dead";
  }

  /** One page of dead jobs; {@code limit} and {@code cursor} are left out when null. */
  static String deadPage(String queue, Integer limit, String cursor) {
    return page(new StringBuilder(dead(queue)), '?', limit, cursor);
  }

  /** One page of the jobs of a queue in one state; {@code limit}, {@code cursor} as above. */
  static String jobsPage(String queue, String state, Integer limit, String cursor) {
    StringBuilder path = new StringBuilder(jobs(queue)).append("?state=").append(query(state));
    return page(path, '&', limit, cursor);
  }

  private static String page(StringBuilder path, char separator, Integer limit, String cursor) {
    if (limit != null) {
      path.append(separator).append("limit=").append(limit);
      separator = '&';
    }
    if (cursor != null) {
      path.append(separator).append("cursor=").append(query(cursor));
    }
    return path.toString();
  }

  /** One page of a queue's archived history; absent filters, limit and cursor are left out. */
  static String historyPage(
      String queue, String outcome, Instant since, Integer limit, String cursor) {
    StringBuilder path = new StringBuilder(queue(queue)).append("/history");
    char separator = '?';
    if (outcome != null) {
      path.append(separator).append("outcome=").append(query(outcome));
      separator = '&';
    }
    if (since != null) {
      path.append(separator).append("since=").append(since.toEpochMilli());
      separator = '&';
    }
    return page(path, separator, limit, cursor);
  }

  /** The last archived record of a job id. */
  static String historyJob(String queue, String id) {
    return queue(queue) + "/history/" + segment(id);
  }

  /** Removes a queue: only an empty one, or with {@code force} with all its jobs. */
  static String deleteQueue(String queue, boolean force) {
    return force ? queue(queue) + "?force=true" : queue(queue);
  }

  static String pause(String queue) {
    return queue(queue) + "/pause";
  }

  static String resume(String queue) {
    return queue(queue) + "/resume";
  }

  static String claim(String queue) {
    return queue(queue) + "/claim";
  }

  static String ack(String queue, String id) {
    return job(queue, id) + "/ack";
  }

  static String nack(String queue, String id) {
    return job(queue, id) + "/nack";
  }

  static String requeueDead(String queue, String id) {
    return dead(queue) + "/" + segment(id) + "/requeue";
  }

  static String requeueAllDead(String queue) {
    return dead(queue) + "/requeue";
  }

  private static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
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
