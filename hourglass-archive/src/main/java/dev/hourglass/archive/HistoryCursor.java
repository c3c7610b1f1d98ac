package dev.hourglass.archive;

import dev.hourglass.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * The position after the last row of a history page, in the page order (finished_at, partition,
 * record_id, all descending), carried to the client as opaque text.
 */
record HistoryCursor(Instant finishedAt, int partition, String recordId) {

  String encode() {
    long micros = finishedAt.getEpochSecond() * 1_000_000L + finishedAt.getNano() / 1000;
    String text = "1:" + micros + ":" + partition + ":" + recordId;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static HistoryCursor decode(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      String[] parts = text.split(":", 4);
      if (parts.length != 4 || !parts[0].equals("1") || parts[3].isEmpty()) {
        throw invalid();
      }
      long micros = Long.parseLong(parts[1]);
      Instant at =
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
      return new HistoryCursor(at, Integer.parseInt(parts[2]), parts[3]);
    } catch (IllegalArgumentException e) { // bad base64 or number
      throw invalid();
    }
  }

  private static InvalidArgumentException invalid() {
    return new InvalidArgumentException("cursor", "is not a cursor of a history page");
  }
}
