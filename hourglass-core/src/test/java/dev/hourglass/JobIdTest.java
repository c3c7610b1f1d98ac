package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JobSpec#isValidId} is the documented id rule, {@link JobSpec#ID_PATTERN}, without a regex.
 */
class JobIdTest {
  private static final String ALPHABET =
      "AZaz09._:-/ @#é\u0000\u00e9\u4e2d\uD83D\uDE00+=,;!~`'\"()[]{}<>|\\\t\nMmYy";

  @Test
  void agreesWithThePatternOnEdgeCases() {
    for (String id :
        new String[] {
          "",
          "a",
          "A",
          "z",
          "Z",
          "0",
          "9",
          ".",
          "_",
          ":",
          "-",
          "order-42",
          "a b",
          "a/b",
          "é",
          "a".repeat(128),
          "a".repeat(129),
          "@",
          "[",
          "`",
          "{",
          "/",
          "\u0660"
        }) {
      assertThat(JobSpec.isValidId(id))
          .as("'%s'", id)
          .isEqualTo(JobSpec.ID_PATTERN.matcher(id).matches());
    }
    assertThat(JobSpec.isValidId(null)).isFalse();
  }

  @Test
  void agreesWithThePatternOnRandomStrings() {
    Random random = new Random(42);
    int valid = 0;
    for (int n = 0; n < 100_000; n++) {
      StringBuilder id = new StringBuilder();
      int length = random.nextInt(131);
      boolean plain = random.nextInt(3) > 0; // mostly valid characters, so both answers occur
      for (int i = 0; i < length; i++) {
        id.append(
            plain
                ? "abcXYZ019._:-".charAt(random.nextInt(13))
                : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      String s = id.toString();
      boolean expected = JobSpec.ID_PATTERN.matcher(s).matches();
      assertThat(JobSpec.isValidId(s)).as("'%s'", s).isEqualTo(expected);
      valid += expected ? 1 : 0;
    }
    assertThat(valid).isBetween(10_000, 90_000);
  }
}
