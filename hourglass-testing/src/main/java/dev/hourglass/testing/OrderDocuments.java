package dev.hourglass.testing;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Order documents as a shop's service would enqueue them: compact JSON of about 1 KB, each with its
 * own order, customer and payment ids, address, two to five items with their prices, and a note.
 * The same seed gives the same documents. For the compression tests and the memory benchmark, whose
 * figures depend on how alike payloads are: these share their field names and some of their values,
 * as one service's payloads do, and differ in every id, price and count.
 */
public final class OrderDocuments {
  private static final String[] FIRST = {
    "Anna", "Jonas", "Lea", "Paul", "Mia", "Ben", "Emma", "Noah", "Sofia", "Elias", "Clara", "Felix"
  };
  private static final String[] LAST = {
    "Schmidt", "Weber", "Fischer", "Wagner", "Becker", "Hoffmann", "Koch", "Richter", "Klein"
  };
  private static final String[] STREETS = {
    "Hauptstrasse", "Bahnhofstrasse", "Gartenweg", "Schulstrasse", "Lindenallee", "Am Markt"
  };
  private static final String[] CITIES = {
    "Berlin", "Hamburg", "Munich", "Cologne", "Frankfurt", "Leipzig", "Dresden", "Bremen"
  };
  private static final String[] PRODUCTS = {
    "Organic green tea 100g",
    "Espresso beans 1kg",
    "Ceramic mug, white",
    "Stainless kettle 1.7l",
    "Oat milk 1l",
    "Dark chocolate 85%",
    "Linen tea towel",
    "Pour-over coffee filter",
    "Glass storage jar 500ml"
  };
  private static final String[] NOTES = {
    "", "Please leave at the door", "Gift wrap, no invoice in the parcel", "Call before delivery"
  };

  private final SplittableRandom random;
  private int sequence;

  /**
   * A source of documents that repeats for the same seed.
   *
   * @param seed the seed of the random choices
   */
  public OrderDocuments(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /**
   * The next document, UTF-8.
   *
   * @return about 1 KB of order JSON, different from the ones before
   */
  public byte[] next() {
    int n = ++sequence;
    StringBuilder items = new StringBuilder();
    int count = 2 + random.nextInt(4);
    long total = 490;
    for (int k = 0; k < count; k++) {
      long cents = 100 + random.nextInt(8000);
      int quantity = 1 + random.nextInt(4);
      total += cents * quantity;
      items
          .append(k > 0 ? "," : "")
          .append(
              String.format(
                  Locale.ROOT,
                  "{\"sku\":\"SKU-%06d\",\"name\":\"%s\",\"quantity\":%d,\"unitPrice\":{\"amount\":"
                      + "\"%s\",\"currency\":\"EUR\"},\"taxRate\":\"0.19\"}",
                  random.nextInt(1_000_000),
                  pick(PRODUCTS),
                  quantity,
                  money(cents)));
    }
    String first = pick(FIRST);
    String last = pick(LAST);
    String json =
        String.format(
            Locale.ROOT,
            "{\"orderId\":\"ord-%08d\",\"createdAt\":\"2026-11-%02dT%02d:%02d:%02d.%03dZ\","
                + "\"customer\":{\"id\":\"cus-%07d\",\"email\":\"%s.%s%d@example.com\",\"name\":\"%s %s\"},"
                + "\"shippingAddress\":{\"street\":\"%s %d\",\"postalCode\":\"%05d\",\"city\":\"%s\","
                + "\"country\":\"DE\"},\"items\":[%s],\"shipping\":{\"method\":\"%s\",\"amount\":\"4.90\","
                + "\"currency\":\"EUR\"},\"total\":{\"amount\":\"%s\",\"currency\":\"EUR\"},"
                + "\"payment\":{\"method\":\"%s\",\"status\":\"authorized\",\"reference\":\"pay_%016x\"},"
                + "\"status\":\"pending_payment\",\"notes\":\"%s\"}",
            n,
            1 + random.nextInt(28),
            random.nextInt(24),
            random.nextInt(60),
            random.nextInt(60),
            random.nextInt(1000),
            random.nextInt(10_000_000),
            first.toLowerCase(Locale.ROOT),
            last.toLowerCase(Locale.ROOT),
            random.nextInt(100),
            first,
            last,
            pick(STREETS),
            1 + random.nextInt(200),
            1000 + random.nextInt(99000),
            pick(CITIES),
            items,
            random.nextBoolean() ? "standard" : "express",
            money(total),
            random.nextBoolean() ? "card" : random.nextBoolean() ? "paypal" : "invoice",
            random.nextLong(),
            pick(NOTES));
    return json.getBytes(StandardCharsets.UTF_8);
  }

  private String pick(String[] values) {
    return values[random.nextInt(values.length)];
  }

  private static String money(long cents) {
    return cents / 100 + "." + String.format(Locale.ROOT, "%02d", cents % 100);
  }
}
