package dev.hourglass.internal;

import dev.hourglass.internal.store.Keys;
import dev.hourglass.spi.IdGenerator;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.SplittableRandom;

/**
 * The default id generator: 48 bits of epoch milliseconds then 72 random bits as 20 URL-safe base64
 * characters, a '.', and one more character that names the pool the job's record goes in ({@link
 * Keys#poolIndex}; any, for {@link #newId()}). Ids made later sort later (within a millisecond, at
 * random); collisions need 2^36 ids in one millisecond. The random bits come from a generator per
 * thread seeded by {@link SecureRandom}: ids must differ, not be secret. Lease tokens ({@link
 * #token}) must not be guessed, and come from {@link SecureRandom} itself.
 */
public final class RandomIds implements IdGenerator {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final SecureRandom SEEDS = new SecureRandom();
  private static final ThreadLocal<SplittableRandom> RANDOM =
      ThreadLocal.withInitial(() -> new SplittableRandom(SEEDS.nextLong()));
  private final SecureRandom secure = new SecureRandom();
  private final Clock clock;

  public RandomIds(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String newId() {
    return newId(0);
  }

  /** A new id whose record goes in pool {@code pool} (below 64) of its partition. */
  public String newId(int pool) {
    byte[] bytes = new byte[15];
    long ms = clock.millis();
    for (int i = 5; i >= 0; i--) {
      bytes[i] = (byte) ms;
      ms >>>= 8;
    }
    SplittableRandom random = RANDOM.get();
    long r = random.nextLong();
    for (int i = 6; i < 14; i++) {
      bytes[i] = (byte) r;
      r >>>= 8;
    }
    bytes[14] = (byte) random.nextInt();
    return ENCODER.encodeToString(bytes) + '.' + Keys.poolCharacter(pool);
  }

  /** A random token for receipts and owner ids: 12 URL-safe characters (72 bits). */
  public String token() {
    byte[] bytes = new byte[9];
    secure.nextBytes(bytes);
    return ENCODER.encodeToString(bytes);
  }
}
