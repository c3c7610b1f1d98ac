package dev.hourglass.internal;

import dev.hourglass.internal.store.Keys;
import dev.hourglass.spi.IdGenerator;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.SplittableRandom;

/**
 * The default id generator: 19 characters of the URL-safe base64 alphabet in ASCII order, 42 bits
 * of epoch milliseconds (until 2109) then 72 random bits, a '.', and one more character that names
 * the pool the job's record goes in ({@link Keys#poolIndex}; any, for {@link #newId()}). Ids made
 * later sort later (within a millisecond, at random). 21 characters: with the pool byte that
 * follows an id inside Redis, 22 bytes, the most a field of a Redis hash keeps in a 24-byte
 * allocation (a 1-byte header and a terminator; one more byte takes 32, 8 bytes more per job). Two
 * ids can only be equal when made in the same millisecond, and then need 2^36 ids in it to be
 * likely. The random bits come from a generator per thread seeded by {@link SecureRandom}: ids must
 * differ, not be secret. Lease tokens ({@link #token}) must not be guessed, and come from {@link
 * SecureRandom} itself.
 */
public final class RandomIds implements IdGenerator {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final char[] ALPHABET =
      "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".toCharArray();
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
    char[] id = new char[Keys.MADE_ID_LENGTH];
    long ms = clock.millis();
    for (int i = 6; i >= 0; i--) {
      id[i] = ALPHABET[(int) ms & 63];
      ms >>>= 6;
    }
    SplittableRandom random = RANDOM.get();
    long r = random.nextLong();
    for (int i = 7; i < 17; i++) {
      id[i] = ALPHABET[(int) r & 63];
      r >>>= 6;
    }
    int more = random.nextInt();
    id[17] = ALPHABET[more & 63];
    id[18] = ALPHABET[(more >>> 6) & 63];
    id[19] = '.';
    id[20] = Keys.poolCharacter(pool);
    return new String(id);
  }

  /** A random token for receipts and owner ids: 12 URL-safe characters (72 bits). */
  public String token() {
    byte[] bytes = new byte[9];
    secure.nextBytes(bytes);
    return ENCODER.encodeToString(bytes);
  }
}
