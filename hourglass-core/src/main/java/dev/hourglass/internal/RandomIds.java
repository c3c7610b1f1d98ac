package dev.hourglass.internal;

import dev.hourglass.spi.IdGenerator;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;

/**
 * The default id generator: 48 bits of epoch milliseconds then 80 random bits, as 22 URL-safe
 * base64 characters. Ids made later sort later (within a millisecond, at random); collisions need
 * 2^40 ids in one millisecond.
 */
public final class RandomIds implements IdGenerator {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private final SecureRandom random = new SecureRandom();
  private final Clock clock;

  public RandomIds(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String newId() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    long ms = clock.millis();
    for (int i = 5; i >= 0; i--) {
      bytes[i] = (byte) ms;
      ms >>>= 8;
    }
    return ENCODER.encodeToString(bytes);
  }

  /** A random token for receipts and owner ids: 12 URL-safe characters (72 bits). */
  public String token() {
    byte[] bytes = new byte[9];
    random.nextBytes(bytes);
    return ENCODER.encodeToString(bytes);
  }
}
