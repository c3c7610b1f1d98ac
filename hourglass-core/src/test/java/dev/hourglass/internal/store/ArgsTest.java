package dev.hourglass.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A script call's arguments encoded without Strings are the bytes the Strings would have given: the
 * scripts read numbers with tonumber and members byte for byte.
 */
class ArgsTest {
  private static String text(byte[] b) {
    return new String(b, StandardCharsets.US_ASCII);
  }

  @Test
  void aNumberIsItsDecimalDigitsAsLongToStringWritesThem() {
    long[] edges = {
      0,
      1,
      9,
      10,
      11,
      99,
      100,
      -1,
      -9,
      -10,
      -11,
      1_000_000_007L,
      1_764_000_000_000L,
      Long.MAX_VALUE,
      Long.MIN_VALUE,
      Long.MIN_VALUE + 1,
      Integer.MAX_VALUE,
      Integer.MIN_VALUE
    };
    for (long n : edges) {
      assertThat(text(Args.digits(n))).as("%d", n).isEqualTo(Long.toString(n));
    }
    SplittableRandom random = new SplittableRandom(29);
    for (int i = 0; i < 100_000; i++) {
      long n = random.nextLong() >> random.nextInt(64);
      assertThat(text(Args.digits(n))).as("%d", n).isEqualTo(Long.toString(n));
    }
  }

  @Test
  void itemsKeepTheirOrderPastTheInitialRoom() {
    Args args = new Args(1).add("a").add(42).add(new byte[] {7}).addAll(new byte[][] {{1}, {2}});
    for (int i = 0; i < 100; i++) {
      args.add(i);
    }
    byte[][] items = args.toArray();
    assertThat(items).hasNumberOfRows(105);
    assertThat(text(items[0])).isEqualTo("a");
    assertThat(text(items[1])).isEqualTo("42");
    assertThat(items[2]).containsExactly(7);
    assertThat(items[4]).containsExactly(2);
    assertThat(text(items[104])).isEqualTo("99");
  }

  @Test
  void aPartitionsEncodedKeysAndMembersAreItsStringsEncoded() {
    Partition p = new Keys("hg").partition("orders", 1, 3, 40);
    byte[][] keys = p.keysWithAllPools().toArray();
    assertThat(text(keys[0])).isEqualTo(p.meta());
    assertThat(text(keys[3])).isEqualTo(p.inflight());
    assertThat(text(keys[13]))
        .isEqualTo(p.pool("x").substring(0, p.pool("x").lastIndexOf(':')) + ":0");
    assertThat(text(p.keysFor("job-7").toArray()[13])).isEqualTo(p.pool("job-7"));
    for (String id : new String[] {"a", "job-7", "x.y:z_0-9", "A".repeat(128)}) {
      assertThat(p.memberBytes(id)).as(id).isEqualTo(p.member(id).getBytes(StandardCharsets.UTF_8));
    }
    assertThat(text(p.argv().toArray()[0])).isEqualTo("40");
  }
}
